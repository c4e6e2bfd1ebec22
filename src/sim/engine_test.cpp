// The engine wrapper: a deadlock ends the run with an error instead of results of a truncated run.
#include <cstdio>
#include <cstdlib>

#include <gtest/gtest.h>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include "engine.hpp"
#include "hetlb/error.hpp"
#include "platform_loading.hpp"
#include "sanitizer.hpp"

namespace hetlb::sim {
namespace {

namespace s4u = simgrid::s4u;

// One engine per process: each case runs in a child process of its own (the death test's).
[[noreturn]] void run_one_actor(double sleep_first, bool wait_for_ever) {
  auto engine = detail::make_engine();
  const auto hosts = detail::load_platform(*engine, "cluster", 1);
  s4u::Actor::create("node", hosts.front(), [sleep_first, wait_for_ever] {
    s4u::this_actor::sleep_for(sleep_first);
    if (wait_for_ever) s4u::Mailbox::by_name("never")->get<int>();
  });
  try {
    detail::run_engine(*engine, "test run");
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::exit(3);
  }
  std::fprintf(stderr, "ended at %g s\n", s4u::Engine::get_clock());
  std::exit(0);
}

TEST(Engine, DeadlockIsAnErrorNamingTheRunAndTheDate) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_one_actor(2.5, true), ::testing::ExitedWithCode(3), "test run: deadlock at simulated 2.5 s");
}

TEST(Engine, ARunThatEndsIsNoDeadlock) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_one_actor(2.5, false), ::testing::ExitedWithCode(0), "ended at 2.5 s");
}

// Under AddressSanitizer the engine takes thread contexts (whose stacks ASan follows); otherwise
// SimGrid's default, faster contexts.
[[noreturn]] void report_context_factory() {
  auto engine = detail::make_engine();
  const std::string factory = simgrid::config::get_value<std::string>("contexts/factory");
  std::exit((factory == "thread") == detail::kAddressSanitizer ? 0 : 4);
}

TEST(Engine, ThreadContextsExactlyUnderAddressSanitizer) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(report_context_factory(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace hetlb::sim
