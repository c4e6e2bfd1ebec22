/* include/hetlb/version.h from C: its string, its numbers and the build's version (argv[1]) agree, and
 * HETLB_DEPRECATED marks a declaration. */
#include <hetlb/version.h>

#include <stdio.h>
#include <string.h>

HETLB_DEPRECATED("use current() instead") int former(void);
static int current(void) { return 0; }

int main(int argc, char** argv) {
  char numbers[64];
  snprintf(numbers, sizeof numbers, "%d.%d.%d", HETLB_VERSION_MAJOR, HETLB_VERSION_MINOR, HETLB_VERSION_PATCH);
  const int number = HETLB_VERSION_MAJOR * 10000 + HETLB_VERSION_MINOR * 100 + HETLB_VERSION_PATCH;
  if (argc != 2 || strcmp(numbers, HETLB_VERSION_STRING) != 0 || strcmp(argv[1], HETLB_VERSION_STRING) != 0 ||
      number != HETLB_VERSION_NUMBER) {
    fprintf(stderr, "version.h: %s, string %s, number %d, the build's %s\n", numbers, HETLB_VERSION_STRING,
            HETLB_VERSION_NUMBER, argc == 2 ? argv[1] : "?");
    return 1;
  }
  printf("hetlb %s\n", HETLB_VERSION_STRING);
  return current();
}
