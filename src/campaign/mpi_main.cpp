// hetlb-campaign SPEC.json: a campaign spread over MPI ranks (mpirun -np N hetlb-campaign SPEC.json).
// Rank 0 holds the results file (locked) and a dynamic work queue, longest runs (most nodes) first;
// every other rank asks for a setting, runs it as a `hetlb simulate diffusion` process beside this
// executable, sends back the outcome and asks again. Rank 0 appends each row as it arrives, so a
// job stopped at any point loses only the runs in progress; running it again resumes.
#include <mpi.h>

#include <chrono>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "campaign.hpp"
#include "hetlb/error.hpp"
#include "options.hpp"

namespace {
using namespace hetlb::campaign;

constexpr int kToMaster = 1, kToWorker = 2;
constexpr char kSep = '\x1f';

void send(const std::string& s, int to, int tag) {
  MPI_Send(s.data(), static_cast<int>(s.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

std::string receive(int from, int tag, int* source = nullptr) {
  MPI_Status st;
  MPI_Probe(from, tag, MPI_COMM_WORLD, &st);
  int count = 0;
  MPI_Get_count(&st, MPI_CHAR, &count);
  std::string s(static_cast<std::size_t>(count), '\0');
  MPI_Recv(s.data(), count, MPI_CHAR, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (source) *source = st.MPI_SOURCE;
  return s;
}

// Rank 0: hands out settings, records outcomes. Polls (MPI_Iprobe + sleep) rather than blocking, so
// it leaves the cores to the simulations.
std::size_t serve(const Spec& spec, const Options& o, ResultsFile& file, int workers) {
  const auto todo = left_to_run(spec, file.rows(), o.retry);
  fmt::print(stderr, "hetlb-campaign: {} settings, {} done in {}, {} to run on {} worker ranks\n",
             spec.settings.size(), spec.settings.size() - todo.size(), spec.results, todo.size(), workers);
  const Piece piece(o);
  std::size_t next = 0, finished = 0, failed = 0;
  for (int active = workers; active > 0;) {
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, kToMaster, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    if (!flag) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    int worker = 0;
    const std::string msg = receive(MPI_ANY_SOURCE, kToMaster, &worker);
    if (!msg.empty()) {
      const Outcome out = decode(msg);
      failed += out.status == "failed";
      record(file, spec.settings.at(out.id), out, ++finished, todo.size());
    }
    if (next < todo.size() && piece.may_start(static_cast<long>(next))) {
      std::string task = fmt::format("{}{}{}", todo[next], kSep, spec.timeout);
      for (const auto& a : spec.settings[todo[next]].args) task += kSep + a;
      send(task, worker, kToWorker);
      ++next;
    } else {
      send("", worker, kToWorker);
      --active;
    }
  }
  if (next < todo.size())
    fmt::print(stderr, "hetlb-campaign: piece done, {} settings left (run the same command again)\n",
               todo.size() - next);
  return failed;
}

// Other ranks: run what rank 0 hands out until it says stop.
void work(const std::string& hetlb) {
  send("", 0, kToMaster);
  for (;;) {
    const std::string task = receive(0, kToWorker);
    if (task.empty()) return;
    std::vector<std::string> f;
    for (std::size_t start = 0;;) {
      const auto sep = task.find(kSep, start);
      f.push_back(task.substr(start, sep == std::string::npos ? sep : sep - start));
      if (sep == std::string::npos) break;
      start = sep + 1;
    }
    Runner runner(hetlb, std::stod(f.at(1)));
    runner.start(std::stoull(f.at(0)), std::vector<std::string>(f.begin() + 2, f.end()));
    const auto ended = runner.wait();
    send(encode(ended.at(0)), 0, kToMaster);
  }
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hetlb-campaign: a campaign of diffusion simulations over MPI ranks (rank 0 keeps the results)"};
  app.name("hetlb-campaign");
  Options o;
  add_options(app, o);
  app.add_option("--hetlb", o.hetlb, "the hetlb executable run by the workers (default: beside hetlb-campaign)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 0;
  try {
    if (size == 1) {  // no worker rank: run on this process, one setting at a time
      if (o.hetlb.empty()) o.hetlb = hetlb_beside_self();
      run_local(o);
    } else if (rank == 0) {
      std::unique_ptr<ResultsFile> file;
      Spec spec;
      int go = 0;
      try {
        spec = prepare(o);
        if (!o.report_only) file = std::make_unique<ResultsFile>(spec.results, spec.version);
        go = o.report_only ? 0 : 1;
      } catch (...) {
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
        throw;
      }
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
      const std::size_t failed = go ? serve(spec, o, *file, size - 1) : 0;
      file.reset();
      report(spec, o);
      if (failed > 0) throw hetlb::Error(fmt::format("campaign: {} runs failed (recorded; see above)", failed));
    } else {
      int go = 0;
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (go) work(o.hetlb.empty() ? hetlb_beside_self() : o.hetlb);
    }
  } catch (const std::exception& e) {
    std::cerr << "hetlb-campaign: error: " << e.what() << "\n";
    status = 1;
  }
  // Rank 0's status is the job's: workers learn it before leaving.
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
