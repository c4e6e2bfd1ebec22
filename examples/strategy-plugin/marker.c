/* For the tests of which commands load a plug-in: linked with first_order.c, a constructor (run by
 * dlopen) that creates the file named by HETLB_PLUGIN_MARKER. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void mark_loaded(void) {
  const char* path = getenv("HETLB_PLUGIN_MARKER");
  if (!path) return;
  FILE* f = fopen(path, "a");
  if (f) fclose(f);
}
