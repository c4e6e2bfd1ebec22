// hetlb-campaign SPEC.json: a campaign spread over MPI ranks (mpirun -np N hetlb-campaign SPEC.json).
// Rank 0 holds the results file (locked) and a dynamic work queue, longest runs (most nodes) first;
// every other rank asks for a setting, runs it as a `hetlb simulate diffusion` process beside this
// executable, sends back the outcome and asks again. Rank 0 appends each row as it arrives, so a
// job stopped at any point loses only the runs in progress; running it again resumes.
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <list>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "hetlb/build_info.hpp"
#include "campaign.hpp"
#include "hetlb/error.hpp"
#include "hetlb/interrupt.hpp"
#include "hetlb/output_path.hpp"
#include "number_checks.hpp"
#include "campaign_options.hpp"

namespace {
using namespace hetlb::campaign;
using hetlb::cli::positive;

constexpr int kToMaster = 1, kToWorker = 2, kHeartbeat = 3, kVerdict = 4;
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

// Rank 0's messages to the workers, sent without blocking: a blocking send to a rank that died (killed
// between its report and the reply) can wait forever inside MPI, where no heartbeat is checked. Each
// message stays here until its send completes; one to a rank taken for dead is abandoned (its buffer
// kept: after a loss the process leaves without MPI_Finalize).
class Outbox {
 public:
  void post(std::string text, int to, int tag) {
    Pending& p = pending_.emplace_back();
    p.bytes = std::move(text);
    MPI_Isend(p.bytes.data(), static_cast<int>(p.bytes.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD, &p.request);
    p.to = to;
  }
  void progress() {  // completes what it can; never waits
    for (auto it = pending_.begin(); it != pending_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? pending_.erase(it) : std::next(it);
    }
  }
  void abandon(int to) {  // a rank taken for dead: its messages are never waited for
    for (auto it = pending_.begin(); it != pending_.end();)
      if (it->to == to) abandoned_.splice(abandoned_.end(), pending_, it++);
      else ++it;
  }
  // Waits for every message not abandoned (to live ranks).
  void flush() {
    for (progress(); !pending_.empty(); progress()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

 private:
  struct Pending {
    std::string bytes;
    MPI_Request request = MPI_REQUEST_NULL;
    int to = 0;
  };
  std::list<Pending> pending_, abandoned_;
};

// Rank 0: hands out settings, records outcomes. Polls (MPI_Iprobe + sleep) rather than blocking, so
// it leaves the cores to the simulations. A worker silent for 5 heartbeats is taken for dead (under
// `mpirun --enable-recovery` the other ranks go on): its run in progress is lost.
struct Served {
  std::size_t failed = 0, lost = 0;
};

Served serve(const Spec& spec, const Options& o, ResultsFile& file, int workers, double heartbeat) {
  const auto left = left_to_run(spec, file.rows(), o.retry);
  const auto todo = select(spec, left, o);
  TimeLeft time_left(spec, todo, file.rows(), workers);
  const std::string estimate = time_left.estimate();
  fmt::print(stderr, "hetlb-campaign: {} settings, {} done in {}, {} to run{} on {} worker ranks{}\n",
             spec.settings.size(), spec.settings.size() - left.size(), spec.results, todo.size(), selection_text(o),
             workers, estimate.empty() ? "" : ", " + estimate);
  const Piece piece(o);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  std::vector<Clock::time_point> heard(static_cast<std::size_t>(workers) + 1, start);
  std::vector<long> running(static_cast<std::size_t>(workers) + 1, -1);  // setting index per rank
  std::vector<bool> dead(static_cast<std::size_t>(workers) + 1, false), stopped = dead;
  std::size_t next = 0, finished = 0;
  Served served;
  // A row that cannot be recorded or a plug-in replaced since the start: no run starts and no row is
  // recorded after it; every worker is stopped when it next reports, then the error ends the campaign.
  std::string failure;
  Outbox outbox;
  for (int active = workers; active > 0;) {
    outbox.progress();
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kHeartbeat, MPI_COMM_WORLD, &flag, &st);
    if (flag) {
      receive(st.MPI_SOURCE, kHeartbeat);
      heard[static_cast<std::size_t>(st.MPI_SOURCE)] = Clock::now();
      continue;
    }
    MPI_Iprobe(MPI_ANY_SOURCE, kToMaster, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    if (!flag) {
      for (int w = 1; w <= workers; ++w) {
        const double silent = std::chrono::duration<double>(Clock::now() - heard[static_cast<std::size_t>(w)]).count();
        const auto i = static_cast<std::size_t>(w);
        if (dead[i] || stopped[i] || silent < 5 * heartbeat) continue;
        dead[i] = true;
        outbox.abandon(w);
        --active;
        ++served.lost;
        fmt::print(stderr, "hetlb-campaign: rank {} silent for {:.1f} s, taken for dead: {}\n", w, silent,
                   running[i] < 0 ? std::string("no run lost")
                                  : "its run " + spec.settings[static_cast<std::size_t>(running[i])].key + " is lost");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    int worker = 0;
    const std::string msg = receive(MPI_ANY_SOURCE, kToMaster, &worker);
    const auto w = static_cast<std::size_t>(worker);
    heard[w] = Clock::now();
    running[w] = -1;
    if (!msg.empty() && failure.empty()) try {
        const Outcome out = decode(msg);
        served.failed += out.status == "failed";
        record(file, spec.settings.at(out.id), out, ++finished, todo.size(), time_left,
               std::chrono::duration<double>(Clock::now() - start).count());
      } catch (const std::exception& e) {
        failure = e.what();
      }
    if (dead[w] || stopped[w]) {  // back after being taken for dead: stop it
      outbox.post("", worker, kToWorker);
      stopped[w] = true;
      continue;
    }
    if (failure.empty() && next < todo.size() && piece.may_start(static_cast<long>(next))) try {
        check_plugin_unchanged(spec, spec.settings[todo[next]], o);  // a rebuilt plug-in: another build
      } catch (const std::exception& e) {
        failure = e.what();
      }
    if (failure.empty() && next < todo.size() && piece.may_start(static_cast<long>(next))) {
      running[w] = static_cast<long>(todo[next]);
      std::string task = fmt::format("{}{}{}", todo[next], kSep, spec.timeout);
      for (const auto& a : spec.settings[todo[next]].args) task += kSep + a;
      outbox.post(std::move(task), worker, kToWorker);
      ++next;
    } else {
      outbox.post("", worker, kToWorker);
      stopped[w] = true;
      --active;
    }
  }
  // Stopped workers wait for the verdict: a dead rank cannot take part in MPI_Finalize, so after a
  // loss every rank leaves without it (every row is recorded by then).
  int verdict = served.lost > 0 ? 1 : 0;
  std::vector<MPI_Request> verdicts;
  for (int w = 1; w <= workers; ++w)
    if (stopped[static_cast<std::size_t>(w)]) {
      MPI_Request& r = verdicts.emplace_back();
      MPI_Isend(&verdict, 1, MPI_INT, w, kVerdict, MPI_COMM_WORLD, &r);
    }
  // Every stopped worker is alive (it reported last) and a dead one's messages were abandoned.
  outbox.flush();
  MPI_Waitall(static_cast<int>(verdicts.size()), verdicts.data(), MPI_STATUSES_IGNORE);
  if (!failure.empty()) {
    if (served.lost > 0) {  // a dead rank cannot take part in MPI_Finalize: leave now
      std::cerr << "hetlb-campaign: error: " << failure << "\n";
      std::_Exit(1);
    }
    throw hetlb::Error(failure);
  }
  if (next < todo.size() || served.lost > 0)
    fmt::print(stderr, "hetlb-campaign: piece done, {} settings left (run the same command again)\n",
               todo.size() - next + served.lost);
  return served;
}

// Other ranks: run what rank 0 hands out until it says stop, with a heartbeat while running.
void work(const std::string& hetlb, double heartbeat) {
  send("", 0, kToMaster);
  for (;;) {
    const std::string task = receive(0, kToWorker);
    if (task.empty()) {
      int verdict = 0, done = 0;
      MPI_Request request;
      MPI_Irecv(&verdict, 1, MPI_INT, 0, kVerdict, MPI_COMM_WORLD, &request);
      // Polled: a blocking receive would spin on a core the other workers' simulations need.
      while (MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (verdict != 0) std::_Exit(0);  // a rank died: no MPI_Finalize
      return;
    }
    std::vector<std::string> f;
    for (std::size_t start = 0;;) {
      const auto sep = task.find(kSep, start);
      f.push_back(task.substr(start, sep == std::string::npos ? sep : sep - start));
      if (sep == std::string::npos) break;
      start = sep + 1;
    }
    Runner runner(hetlb, std::stod(f.at(1)));
    runner.start(std::stoull(f.at(0)), std::vector<std::string>(f.begin() + 2, f.end()));
    std::vector<Outcome> ended;
    while ((ended = runner.wait_for(heartbeat)).empty()) send("", 0, kHeartbeat);
    send(encode(ended.at(0)), 0, kToMaster);
  }
}
}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-campaign")) return 0;  // before MPI or any parsing
  CLI::App app{"hetlb-campaign: a campaign of diffusion simulations over MPI ranks (rank 0 keeps the results)"};
  app.set_version_flag("--version", std::string(), "print the version, the commit and the versions of SimGrid, MPI and GLPK");
  app.name("hetlb-campaign");
  Options o;
  add_options(app, o);
  app.add_option("--hetlb", o.hetlb, "the hetlb executable run by the workers (default: beside hetlb-campaign)");
  double heartbeat = 10;
  app.add_option("--heartbeat", heartbeat, "seconds between a running worker's signs of life; silent 5 times "
                                           "as long, it is taken for dead (with mpirun --enable-recovery)")
      ->check(positive())
      ->capture_default_str();
  // Options are read on every rank, after MPI_Init: only rank 0 prints help or the one error line, and
  // a barrier keeps every rank until it has (a rank exiting first had mpirun kill rank 0 before it
  // printed).
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (rank == 0) app.exit(e);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  } catch (const CLI::ParseError& e) {
    if (rank == 0) std::cerr << "hetlb-campaign: error: " << e.what() << " (see hetlb-campaign --help)" << std::endl;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 2;
  }
  int status = 0;
  try {
    // The command's inputs and outputs: no output replaces an input, none is left by a failure (output_path.hpp).
    hetlb::OutputTransaction outputs;
    if (size == 1) {  // no worker rank: run on this process, one setting at a time
      if (o.hetlb.empty()) o.hetlb = hetlb_beside_self();
      run_local(o);
    } else if (rank == 0) {
      std::unique_ptr<ResultsFile> file;
      Spec spec;
      int go = 0;
      try {
        spec = prepare(o);
        if (!o.report_only)
          // The rows are the workers' simulator's: its build is the file's (--hetlb may be another).
          file = std::make_unique<ResultsFile>(spec.results, spec.version,
                                               simulator_build_id(o.hetlb.empty() ? hetlb_beside_self() : o.hetlb,
                                                                  hetlb::build_id()),
                                               o.allow_mixed_builds,
                                               spec.result_columns);
        if (file) file->accept_plugin_builds(spec.plugins);
        if (file && !select(spec, left_to_run(spec, file->rows(), o.retry), o).empty())
          file->prepare_to_add();  // another build's rows: refused before any run
        go = o.report_only ? 0 : 1;
      } catch (...) {
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
        throw;
      }
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
      const Served served = go ? serve(spec, o, *file, size - 1, heartbeat) : Served{};
      file.reset();
      report(spec, o);
      if (served.lost > 0) {
        // A dead rank cannot take part in MPI_Finalize: leave now, every row recorded.
        std::cerr << fmt::format("hetlb-campaign: error: {} worker ranks lost with their runs in progress; run "
                                 "the same command again to complete\n", served.lost);
        std::_Exit(1);
      }
      if (served.failed > 0)
        throw hetlb::Error(fmt::format("campaign: {} runs failed (recorded; see above)", served.failed));
    } else {
      int go = 0;
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (go) work(o.hetlb.empty() ? hetlb_beside_self() : o.hetlb, heartbeat);
    }
    if (rank == 0) hetlb::finish_standard_output();  // the summary, to its last byte
    outputs.commit();
  } catch (const hetlb::Interrupted& e) {  // one process (no worker rank): SIGINT, SIGTERM (run_local)
    std::cerr << "hetlb-campaign: " << e.what() << "\n";
    status = hetlb::interrupt_exit_status();
  } catch (const std::exception& e) {
    std::cerr << "hetlb-campaign: error: " << e.what() << "\n";
    status = 1;
  }
  MPI_Finalize();
  return status;
}
