// hetlb's errors as MPI error classes (MPI_Add_error_class / MPI_Add_error_string), so that
// MPI_Error_string and the communicator's error handler know them; the stderr switch.
#include <array>
#include <atomic>
#include <mutex>

#include "hetlb/mpi/plan.h"

namespace {

const char* describe(int error) {
  switch (error) {
    case 0: return "success";
    case HETLB_MPI_E_PLATFORM: return "HETLB_MPI_ERR_PLATFORM: the platform file cannot be read or planned";
    case HETLB_MPI_E_SIZE: return "HETLB_MPI_ERR_SIZE: platform processor count differs from the communicator size";
    case HETLB_MPI_E_ROOT: return "HETLB_MPI_ERR_ROOT: root out of range or differing between ranks";
    case HETLB_MPI_E_COUNT: return "HETLB_MPI_ERR_COUNT: item count out of range (n <= 0 or above INT_MAX per rank)";
    case HETLB_MPI_E_BUFFER: return "HETLB_MPI_ERR_BUFFER: null or too small buffer where data is needed";
    case HETLB_MPI_E_MPI: return "HETLB_MPI_ERR_MPI: an MPI call failed inside hetlb";
    case HETLB_MPI_E_TYPE: return "HETLB_MPI_ERR_TYPE: send and receive type signatures differ";
    case HETLB_MPI_E_PLAN: return "HETLB_MPI_ERR_PLAN: null, freed or unknown plan";
    case HETLB_MPI_E_COMM: return "HETLB_MPI_ERR_COMM: plan used on another communicator, or a null communicator";
    case HETLB_MPI_E_ARG: return "HETLB_MPI_ERR_ARG: a measured time, margin or binding out of range or differing between ranks";
  }
  return "unknown hetlb_mpi error";
}

std::once_flag g_registered;
std::array<int, HETLB_MPI_E_LAST + 1> g_class{};  // g_class[e]: the MPI class of hetlb error e
std::atomic<bool> g_output{true};

void register_classes() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  bool ok = initialized && !finalized;
  for (int e = 1; ok && e <= HETLB_MPI_E_LAST; ++e)
    ok = MPI_Add_error_class(&g_class[static_cast<std::size_t>(e)]) == MPI_SUCCESS &&
         MPI_Add_error_string(g_class[static_cast<std::size_t>(e)], const_cast<char*>(describe(e))) == MPI_SUCCESS;
  if (!ok)  // MPI not running or without dynamic classes: numbers past MPI's own, MPI_Error_string cannot know them
    for (int e = 1; e <= HETLB_MPI_E_LAST; ++e) g_class[static_cast<std::size_t>(e)] = MPI_ERR_LASTCODE + e;
}

}  // namespace

extern "C" {

int hetlb_mpi_error_class(int error) {
  if (error <= 0 || error > HETLB_MPI_E_LAST) return MPI_SUCCESS;
  std::call_once(g_registered, register_classes);
  return g_class[static_cast<std::size_t>(error)];
}

int hetlb_mpi_error_of(int code) {
  if (code == MPI_SUCCESS) return 0;
  for (int e = 1; e <= HETLB_MPI_E_LAST; ++e)
    if (hetlb_mpi_error_class(e) == code) return e;
  return -1;
}

const char* hetlb_mpi_status_string(int code) {
  const int e = hetlb_mpi_error_of(code);
  return describe(e >= 0 ? e : (code > 0 && code <= HETLB_MPI_E_LAST ? code : -1));
}

void hetlb_mpi_set_error_output(int enabled) { g_output = enabled != 0; }

}  // extern "C"

namespace hetlb::mpi::detail {
bool error_output() { return g_output; }
}  // namespace hetlb::mpi::detail
