// hetlb-mpi-plan-check: the persistent plan of hetlb/mpi/plan.h under mpirun (ctest driver).
//   --platform F --items N [--root R] --case NAME
// ok:        plan once, scatter three data sets and gather f(x) back each time; every item checked on
//            its planned rank and back at the root, counts equal to the planner's, the root's sends in
//            the send order and its receives in the gather order (PMPI), makespans given by the plan,
//            and an MPI_ANY_TAG receive of the application left pending on the same communicator.
//            Each call starts one agreement check on every rank.
// unchecked: the same after hetlb_mpi_plan_set_checks(plan, 0): the same items, no agreement check.
// in-place: the root passes MPI_IN_PLACE (scatter's receive buffer, gather's send buffer), checks on
//            and off: every item arrives, the root's block untouched in place.
// unchecked-type: checks off, rank size-1 receives 4-byte ints where the root sends 8-byte ones: no
//            hang, an error on that rank (exit 0 when it, and only the ranks that see it, failed).
// errhandler: a size mismatch reaches the error handler of the caller's communicator with a code that
//            MPI_Error_class/MPI_Error_string know as hetlb's.
// Bad input (exit 2 when every rank returned the same code, of the expected hetlb error; 1 otherwise):
// size, missing, directory, root-range, root-differs, type, count, null-recv, null-send, null-gather,
// in-place-elsewhere (a rank other than the root passes MPI_IN_PLACE),
// freed, other-comm (C++: a distribution used on another communicator), quiet (no stderr line),
// checks-differ (hetlb_mpi_plan_set_checks with different values).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/io/platform_json.hpp"
#include "hetlb/mpi/plan.h"
#include "hetlb/mpi/scatter.hpp"
#include "agreement.hpp"

namespace {

std::vector<int> g_sends, g_recvs;  // the root's point-to-point peers, in order
int g_checks = 0;                   // agreement checks started while recording
bool g_record = false;
std::int64_t value(std::int64_t i) { return i * 1000003 + 17; }
std::int64_t result(std::int64_t x) { return 2 * x + 1; }

struct Options {
  std::string platform, name = "ok";
  long long items = 1000;
  int root = 0;
};

int failures = 0;
void expect(bool ok, int rank, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: check failed: %s\n", rank, what.c_str());
  }
}

int g_handler_calls = 0, g_handler_code = 0;
void record_error(MPI_Comm*, int* code, ...) {
  ++g_handler_calls;
  g_handler_code = *code;
}

int run_ok(const Options& o, int rank, int size) {
  hetlb_mpi_plan plan = HETLB_MPI_PLAN_NULL;
  // Only the root's n and path count.
  if (hetlb_mpi_plan_create(rank == o.root ? o.platform.c_str() : nullptr, rank == o.root ? o.items : 0, o.root,
                            MPI_COMM_WORLD, &plan) != MPI_SUCCESS)
    return 1;
  const bool checked = o.name != "unchecked";
  if (!checked) expect(hetlb_mpi_plan_set_checks(plan, 0) == MPI_SUCCESS, rank, "checks off");
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts), order(counts), gorder(counts);
  int count = -1;
  long long offset = -1;
  double makespan = 0, gather = 0;
  hetlb_mpi_plan_counts(plan, counts.data(), displs.data(), order.data());
  hetlb_mpi_plan_share(plan, &count, &offset);
  hetlb_mpi_plan_gather_order(plan, gorder.data(), &makespan, &gather);
  const auto me = static_cast<std::size_t>(rank);
  expect(count == counts[me] && offset == displs[me], rank, "share");
  expect(makespan > 0 && gather >= makespan, rank, "predicted makespans");

  const hetlb::Platform platform = hetlb::io::load_platform_file(o.platform);
  hetlb::scatter::Request request;
  request.items = o.items;
  request.root = platform.processors[static_cast<std::size_t>(o.root)].name;
  const hetlb::scatter::Result planned = hetlb::scatter::plan_scatter(platform, request);
  for (std::size_t i = 0; i < planned.problem.size(); ++i) {
    const std::size_t r = planned.problem.platform_index[i];
    expect(order[i] == static_cast<int>(r) && counts[r] == planned.plan.items[i], rank, "planned counts and order");
  }
  std::vector<int> reversed(order.rbegin(), order.rend());
  expect(gorder == order || gorder == reversed, rank, "gather order is the send order or its reverse");

  // The application's own receive, from anyone with any tag, stays pending on MPI_COMM_WORLD during
  // hetlb's calls: hetlb's messages travel on the plan's duplicate and never match it.
  int pending_value = -1;
  MPI_Request pending = MPI_REQUEST_NULL;
  if (rank != o.root) MPI_Irecv(&pending_value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pending);
  std::vector<std::int64_t> data(rank == o.root ? static_cast<std::size_t>(o.items) : 0), back(data.size());
  std::vector<std::int64_t> mine(static_cast<std::size_t>(count));
  // Round 1 sends and receives through a derived type on the root's side (separate send and receive
  // types with equal signatures, as in MPI_Scatterv/MPI_Gatherv).
  MPI_Datatype wrapped;
  MPI_Type_contiguous(1, MPI_INT64_T, &wrapped);
  MPI_Type_commit(&wrapped);
  for (int round = 0; round < 3; ++round) {
    const MPI_Datatype root_type = round == 1 ? wrapped : MPI_INT64_T;
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = value(static_cast<std::int64_t>(i) + round);
    g_sends.clear(), g_recvs.clear(), g_checks = 0, g_record = true;
    expect(hetlb_mpi_plan_scatter(plan, data.data(), root_type, mine.data(), MPI_INT64_T) == MPI_SUCCESS, rank, "scatter");
    for (int j = 0; j < count; ++j)
      if (mine[static_cast<std::size_t>(j)] != value(offset + j + round)) {
        expect(false, rank, "item " + std::to_string(offset + j) + " scattered");
        break;
      }
    for (std::int64_t& x : mine) x = result(x);
    expect(hetlb_mpi_plan_gather(plan, mine.data(), MPI_INT64_T, back.data(), root_type) == MPI_SUCCESS, rank, "gather");
    g_record = false;
    // Checked: an MPI_Iallreduce per call; between two ranks the scatter's exchange (a send and a
    // receive on each rank) and the gather's one message from the root (one each side).
    const int expected_checks = checked ? (size == 2 ? 3 : 2) : 0;
    expect(g_checks == expected_checks, rank,
           "agreement messages: " + std::to_string(g_checks) + " for a scatter and a gather" + (checked ? "" : " with checks off"));
    for (std::size_t i = 0; i < back.size(); ++i)
      if (back[i] != result(data[i])) {
        expect(false, rank, "item " + std::to_string(i) + " gathered");
        break;
      }
    if (rank == o.root) {
      std::vector<int> sends, recvs;
      for (int r : order)
        if (r != o.root && counts[static_cast<std::size_t>(r)] > 0) sends.push_back(r);
      for (int r : gorder)
        if (r != o.root && counts[static_cast<std::size_t>(r)] > 0) recvs.push_back(r);
      expect(g_sends == sends, rank, "sends in the send order");
      expect(g_recvs == recvs, rank, "receives in the gather order");
    }
  }
  MPI_Type_free(&wrapped);
  int matched = 0;
  if (rank != o.root) MPI_Test(&pending, &matched, MPI_STATUS_IGNORE);
  expect(!matched, rank, "the application's pending MPI_ANY_TAG receive was left alone");
  MPI_Barrier(MPI_COMM_WORLD);  // everyone has looked before the root sends the application's message
  if (rank == o.root)
    for (int r = 0; r < size; ++r)
      if (r != o.root) MPI_Send(&r, 1, MPI_INT, r, 99, MPI_COMM_WORLD);
  if (rank != o.root) {
    MPI_Wait(&pending, MPI_STATUS_IGNORE);
    expect(pending_value == rank, rank, "the application's message");
  }
  expect(hetlb_mpi_plan_free(&plan) == MPI_SUCCESS && plan == HETLB_MPI_PLAN_NULL, rank, "free");
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("%s: %d ranks, %lld items, root %d, 3 scatters and gathers, gather %s\n", total ? "FAILED" : "ok", size,
                o.items, o.root, gorder == order ? "in send order" : "in reverse order");
  return total ? 1 : 0;
}

// MPI_IN_PLACE at the root: its block is neither copied out (scatter) nor in (gather), and every
// other item travels as usual; checks on, then off.
int run_in_place(const Options& o, int rank, int size) {
  hetlb_mpi_plan plan = HETLB_MPI_PLAN_NULL;
  if (hetlb_mpi_plan_create(o.platform.c_str(), o.items, o.root, MPI_COMM_WORLD, &plan) != MPI_SUCCESS) return 1;
  int count = 0;
  long long offset = 0;
  hetlb_mpi_plan_share(plan, &count, &offset);
  const bool root = rank == o.root;
  for (int checks = 1; checks >= 0; --checks) {
    expect(hetlb_mpi_plan_set_checks(plan, checks) == MPI_SUCCESS, rank, "checks");
    std::vector<std::int64_t> data(root ? static_cast<std::size_t>(o.items) : 0), mine(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = value(static_cast<std::int64_t>(i));
    expect(hetlb_mpi_plan_scatter(plan, data.data(), MPI_INT64_T, root ? MPI_IN_PLACE : mine.data(), MPI_INT64_T) ==
               MPI_SUCCESS,
           rank, "in-place scatter");
    if (root)  // the root's block, read where it is
      for (int j = 0; j < count; ++j) mine[static_cast<std::size_t>(j)] = data[static_cast<std::size_t>(offset + j)];
    for (int j = 0; j < count; ++j)
      if (mine[static_cast<std::size_t>(j)] != value(offset + j)) {
        expect(false, rank, "item " + std::to_string(offset + j) + " scattered");
        break;
      }
    // Gather f(x) back into data itself; the root's block is computed in place.
    for (std::int64_t& x : mine) x = result(x);
    if (root)
      for (int j = 0; j < count; ++j) data[static_cast<std::size_t>(offset + j)] = mine[static_cast<std::size_t>(j)];
    expect(hetlb_mpi_plan_gather(plan, root ? MPI_IN_PLACE : mine.data(), MPI_INT64_T, data.data(), MPI_INT64_T) ==
               MPI_SUCCESS,
           rank, "in-place gather");
    for (std::size_t i = 0; i < data.size(); ++i)
      if (data[i] != result(value(static_cast<std::int64_t>(i)))) {
        expect(false, rank, "item " + std::to_string(i) + " gathered");
        break;
      }
  }
  hetlb_mpi_plan_free(&plan);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%s: %d ranks, %lld items, root %d, MPI_IN_PLACE at the root\n", total ? "FAILED" : "ok", size, o.items, o.root);
  return total ? 1 : 0;
}

// A bad-input case: returns the code of the failing call on this rank, and the hetlb error expected.
int bad_case(const Options& o, int rank, int size, int& expected) {
  const char* path = o.platform.c_str();
  hetlb_mpi_plan plan = HETLB_MPI_PLAN_NULL;
  const auto room = static_cast<std::size_t>(std::min<long long>(o.items, 1 << 20));  // the count case plans 5e9
  std::vector<std::int64_t> data(room), mine(room);
  auto create = [&](const char* p, long long n, int root) { return hetlb_mpi_plan_create(p, n, root, MPI_COMM_WORLD, &plan); };
  const std::string& c = o.name;
  int rc = MPI_SUCCESS;
  if (c == "size" || c == "missing" || c == "directory" || c == "root-range" || c == "count" || c == "quiet") {
    expected = c == "size" || c == "quiet" ? HETLB_MPI_E_SIZE : c == "root-range" ? HETLB_MPI_E_ROOT
             : c == "count" ? HETLB_MPI_E_COUNT : HETLB_MPI_E_PLATFORM;
    if (c == "quiet") hetlb_mpi_set_error_output(0);
    return create(rank == o.root ? path : nullptr, rank == o.root ? o.items : 0, o.root);
  }
  if (c == "checks-differ") {
    expected = HETLB_MPI_E_PLAN;
    if ((rc = create(path, o.items, o.root)) != MPI_SUCCESS) return rc;
    rc = hetlb_mpi_plan_set_checks(plan, rank == size - 1 ? 0 : 1);
    // The checks stayed on: a type mismatch is still an error on every rank (its line not printed).
    hetlb_mpi_set_error_output(0);
    const int after = hetlb_mpi_plan_scatter(plan, data.data(), MPI_INT64_T, mine.data(), rank == size - 1 ? MPI_INT : MPI_INT64_T);
    hetlb_mpi_set_error_output(1);
    if (hetlb_mpi_error_of(after) != HETLB_MPI_E_TYPE) rc = MPI_ERR_OTHER;
    hetlb_mpi_plan_free(&plan);
    return rc;
  }
  if (c == "root-differs") {
    expected = HETLB_MPI_E_ROOT;
    return create(path, o.items, rank == size - 1 ? 1 : 0);
  }
  if (c == "other-comm") {  // C++: a distribution planned on MPI_COMM_WORLD used on a duplicate of it
    expected = HETLB_MPI_E_COMM;
    MPI_Comm other;
    MPI_Comm_dup(MPI_COMM_WORLD, &other);
    try {
      const hetlb::mpi::Distribution d = hetlb::mpi::plan_distribution(o.platform, o.items, o.root, MPI_COMM_WORLD);
      hetlb::mpi::scatter(data.data(), MPI_INT64_T, mine.data(), static_cast<int>(mine.size()), d, other);
    } catch (const hetlb::mpi::Error& e) {
      if (e.reporter()) std::fprintf(stderr, "hetlb_mpi: %s\n", e.what());
      rc = e.mpi_code();
    }
    MPI_Comm_free(&other);
    return rc;
  }
  if ((rc = create(path, o.items, o.root)) != MPI_SUCCESS) {
    expected = -1;
    return rc;
  }
  if (c == "type") {  // rank size-1 receives 4-byte ints where the root sends 8-byte ones
    expected = HETLB_MPI_E_TYPE;
    rc = hetlb_mpi_plan_scatter(plan, data.data(), MPI_INT64_T, mine.data(), rank == size - 1 ? MPI_INT : MPI_INT64_T);
  } else if (c == "null-recv") {
    expected = HETLB_MPI_E_BUFFER;
    rc = hetlb_mpi_plan_scatter(plan, data.data(), MPI_INT64_T, rank == size - 1 ? nullptr : mine.data(), MPI_INT64_T);
  } else if (c == "null-send") {
    expected = HETLB_MPI_E_BUFFER;
    rc = hetlb_mpi_plan_scatter(plan, nullptr, MPI_INT64_T, mine.data(), MPI_INT64_T);
  } else if (c == "in-place-elsewhere") {  // only the root may pass MPI_IN_PLACE
    expected = HETLB_MPI_E_BUFFER;
    rc = hetlb_mpi_plan_scatter(plan, data.data(), MPI_INT64_T, rank == size - 1 ? MPI_IN_PLACE : mine.data(), MPI_INT64_T);
  } else if (c == "null-gather") {
    expected = HETLB_MPI_E_BUFFER;
    rc = hetlb_mpi_plan_gather(plan, mine.data(), MPI_INT64_T, nullptr, MPI_INT64_T);
  } else if (c == "gather-type" || c == "gather-type-wide") {
    // Rank size-1 sends 4-byte ints (or 16-byte pairs) where the root receives 8-byte ones: a shorter
    // (or truncated) block at the root; between two ranks the root reads the verdict from it.
    expected = HETLB_MPI_E_TYPE;
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT64_T, &pair);
    MPI_Type_commit(&pair);
    std::vector<std::int64_t> wide(2 * room);
    const bool odd = rank == size - 1;
    const MPI_Datatype type = !odd ? MPI_INT64_T : c == "gather-type" ? MPI_INT : pair;
    rc = hetlb_mpi_plan_gather(plan, odd && c == "gather-type-wide" ? wide.data() : mine.data(), type, data.data(), MPI_INT64_T);
    MPI_Type_free(&pair);
  } else if (c == "null-gather-send") {
    expected = HETLB_MPI_E_BUFFER;
    rc = hetlb_mpi_plan_gather(plan, rank == size - 1 ? nullptr : mine.data(), MPI_INT64_T, data.data(), MPI_INT64_T);
  } else if (c == "freed") {
    expected = HETLB_MPI_E_PLAN;
    hetlb_mpi_plan copy = plan;
    hetlb_mpi_plan_free(&plan);
    rc = hetlb_mpi_plan_scatter(copy, data.data(), MPI_INT64_T, mine.data(), MPI_INT64_T);
  } else {
    if (rank == 0) std::fprintf(stderr, "unknown case %s\n", c.c_str());
    expected = -1;
  }
  if (plan != HETLB_MPI_PLAN_NULL) hetlb_mpi_plan_free(&plan);
  return rc;
}

}  // namespace

// Checks off, mismatched types: the rank that receives the wrong bytes fails, nobody hangs.
int run_unchecked_type(const Options& o, int rank, int size) {
  hetlb_mpi_set_error_output(0);
  hetlb_mpi_plan plan = HETLB_MPI_PLAN_NULL;
  if (hetlb_mpi_plan_create(o.platform.c_str(), o.items, o.root, MPI_COMM_WORLD, &plan) != MPI_SUCCESS) return 1;
  expect(hetlb_mpi_plan_set_checks(plan, 0) == MPI_SUCCESS, rank, "checks off");
  std::vector<std::int64_t> data(static_cast<std::size_t>(o.items)), mine(data.size());
  const bool odd = rank == size - 1;
  const int rc = hetlb_mpi_plan_scatter(plan, data.data(), MPI_INT64_T, mine.data(), odd ? MPI_INT : MPI_INT64_T);
  int count = 0;
  long long offset = 0;
  hetlb_mpi_plan_share(plan, &count, &offset);
  if (odd && count > 0) expect(hetlb_mpi_error_of(rc) == HETLB_MPI_E_MPI, rank, "the mismatched rank's error");
  if (!odd) expect(rc == MPI_SUCCESS, rank, "the other ranks saw nothing wrong");
  hetlb_mpi_plan_free(&plan);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%s: checks off, a mismatched type fails on its rank only\n", total ? "FAILED" : "ok");
  return total ? 1 : 0;
}

// The agreement of each call (src/mpi/agreement.hpp): an MPI_Iallreduce, or between two ranks messages
// on Agreement::kTag (each send and receive counted), apart from the blocks.
constexpr int kAgreementTag = hetlb::mpi::detail::Agreement::kTag;

extern "C" int MPI_Iallreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  if (g_record) ++g_checks;
  return PMPI_Iallreduce(in, out, count, type, op, comm, request);
}

extern "C" int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (g_record) g_sends.push_back(dest);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}
extern "C" int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  if (g_record && tag == kAgreementTag) ++g_checks;
  else if (g_record) g_sends.push_back(dest);
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* st) {
  if (g_record) g_recvs.push_back(source);
  return PMPI_Recv(buf, count, type, source, tag, comm, st);
}
extern "C" int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  if (g_record && tag == kAgreementTag) ++g_checks;
  else if (g_record) g_recvs.push_back(source);
  return PMPI_Irecv(buf, count, type, source, tag, comm, request);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], v = argv[i + 1];
    if (key == "--platform") o.platform = v;
    else if (key == "--items") o.items = std::atoll(v.c_str());
    else if (key == "--root") o.root = std::atoi(v.c_str());
    else if (key == "--case") o.name = v;
  }
  int exit_code = 1;
  if (o.name == "ok" || o.name == "unchecked") {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    exit_code = run_ok(o, rank, size);
  } else if (o.name == "in-place") {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    exit_code = run_in_place(o, rank, size);
  } else if (o.name == "unchecked-type") {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    exit_code = run_unchecked_type(o, rank, size);
  } else if (o.name == "errhandler") {
    MPI_Errhandler handler;
    MPI_Comm_create_errhandler(record_error, &handler);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
    hetlb_mpi_set_error_output(0);
    hetlb_mpi_plan plan = HETLB_MPI_PLAN_NULL;
    const int rc = hetlb_mpi_plan_create(o.platform.c_str(), o.items, o.root, MPI_COMM_WORLD, &plan);
    int length = 0;  // (Open MPI 4.1's MPI_Error_class answers MPI_ERR_UNKNOWN for added classes)
    char text[MPI_MAX_ERROR_STRING] = "";
    MPI_Error_string(g_handler_code, text, &length);
    expect(rc == HETLB_MPI_ERR_SIZE && g_handler_calls == 1 && g_handler_code == rc &&
               std::strstr(text, "HETLB_MPI_ERR_SIZE") != nullptr && plan == HETLB_MPI_PLAN_NULL,
           rank, "error handler called once with HETLB_MPI_ERR_SIZE ('" + std::string(text) + "', " + std::to_string(g_handler_calls) + " calls, code " + std::to_string(g_handler_code) + ", rc " + std::to_string(rc) + ")");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&handler);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) std::printf("%s: the error handler saw '%s'\n", total ? "FAILED" : "ok", text);
    exit_code = total ? 1 : 0;
  } else {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int expected = 0;
    const int rc = bad_case(o, rank, size, expected);
    int codes[2] = {rc, -rc}, extremes[2];
    MPI_Allreduce(codes, extremes, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    const bool same = extremes[0] == -extremes[1];
    const bool right = same && expected > 0 && hetlb_mpi_error_of(rc) == expected;
    int all_right = 0, mine = right ? 1 : 0;
    MPI_Allreduce(&mine, &all_right, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0 && !all_right)
      std::printf("FAILED: case %s: codes %s on every rank, %s (expected hetlb error %d)\n", o.name.c_str(),
                  same ? "equal" : "differ", hetlb_mpi_status_string(rc), expected);
    if (rank == 0 && all_right) std::printf("refused as expected: %s\n", hetlb_mpi_status_string(rc));
    exit_code = all_right ? 2 : 1;
  }
  MPI_Finalize();
  return exit_code;
}
