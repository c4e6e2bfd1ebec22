// Where unlike speeds come from on the command line: a list or file of relative speeds (one per node
// or rank), and slowdowns (a node's speed divided by a factor during an interval, an emulated load
// peak). Pure parsing and checks; the simulator applies them through SimGrid (host speeds and speed
// profiles), docs/simulation.md "Unlike speeds".
#pragma once
#include <string>
#include <vector>

namespace hetlb::diffusion {

// Relative speeds from `spec`: a comma-separated list ("1,1,2,4") or a file of numbers (any white
// space between them, '#' comments). Each must be finite and > 0; with nodes > 0 there must be exactly
// `nodes` of them. Throws hetlb::Error naming the file (and line) or the list, the value and what was
// expected.
std::vector<double> read_speeds(const std::string& spec, int nodes);

// A node slowed by `factor` (its speed divided by it; < 1 speeds it up) from `start` to `end` (s).
struct Slowdown {
  int node = 0;
  double factor = 1, start = 0, end = 0;
  std::string text;  // as given, for error messages
};

// "NODE:FACTOR:START:END": a node index >= 0, a finite factor > 0, finite dates with 0 <= START < END.
// Throws hetlb::Error naming the text and the field.
Slowdown parse_slowdown(const std::string& text);

// Every node in 0..nodes-1, intervals on one node disjoint (one may start where another ends).
void check_slowdowns(const std::vector<Slowdown>& slowdowns, int nodes);

}  // namespace hetlb::diffusion
