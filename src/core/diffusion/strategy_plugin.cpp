// Strategy plug-ins (include/hetlb/strategy_plugin.h): a shared library loaded by path with dlopen,
// once per process and never unloaded, its entry point and description checked before any run.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"
#include "hetlb/output_path.hpp"
#include "hetlb/strategy_plugin.h"
#include "plugin_guard.hpp"

namespace hetlb::diffusion {

const Rule& find_builtin_or_plugin(const std::string& name);

namespace {

constexpr const char* kPrefix = "plugin:";

std::vector<double> decide_plugin(const Rule& rule, const NodeView& v) {
  const auto* entry = static_cast<const hetlb_strategy_plugin*>(rule.context);
  thread_local std::vector<double> ones;
  const std::vector<double>* speeds = &v.speeds;
  if (v.speeds.empty()) {
    ones.assign(v.neighbours.size(), 1.0);
    speeds = &ones;
  }
  const hetlb_node_view view{v.at.node,
                             v.at.date,
                             v.load,
                             v.speed,
                             static_cast<int>(v.neighbours.size()),
                             v.neighbours.data(),
                             speeds->data(),
                             v.params.data()};
  std::vector<double> out(v.neighbours.size(), 0.0);
  int status = 0;
  {
    const detail::PluginCall call(rule.origin, v.at.node);  // exit(), a crash or no return: its error
    status = entry->decide(&view, out.data());
  }
  if (status != 0)
    throw Error(fmt::format("strategy plug-in {}: node {} at date {:.17g}: decide() returned {}; expected 0",
                            rule.origin, v.at.node, v.at.date, status));
  return out;
}

[[noreturn]] void refuse(const std::string& path, const std::string& problem) {
  throw Error(fmt::format("strategy plug-in {}: {}", path, problem));
}

std::string text(const char* s) { return s ? std::string(s) : std::string(); }

// A plug-in's name, label, summary or help, printed in tables and messages: one line of printable text.
std::string line_of_text(const std::string& path, const char* what, const char* s, std::size_t max_chars) {
  const std::string t = text(s);
  const bool control = std::any_of(t.begin(), t.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
  if (control || t.size() > max_chars)
    refuse(path, fmt::format("{} {}; expected a line of at most {} characters without control characters", what,
                             printable(t), max_chars));
  return t;
}

// "plugin-" and the FNV-1a 64-bit hash of the file's bytes: what a rebuild changes. Empty when the
// path names no readable regular file (opened without blocking: a named pipe put there is not waited on).
std::string identity_of(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "";
  struct stat st {};
  std::uint64_t h = 14695981039346656037ULL;
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  unsigned char buf[65536];
  for (ssize_t got; ok && (got = ::read(fd, buf, sizeof buf)) != 0;) {
    if (got < 0) {
      ok = errno == EINTR;
      continue;
    }
    for (ssize_t i = 0; i < got; ++i) {
      h ^= buf[i];
      h *= 1099511628211ULL;
    }
  }
  ::close(fd);
  return ok ? fmt::format("plugin-{:016x}", h) : std::string();
}

std::unique_ptr<Rule> load(const std::string& path) {
  if (path.empty()) refuse(path, "no path; expected plugin:PATH of a shared library");
  if (std::filesystem::is_directory(path)) refuse(path, "a directory; expected a shared library");
  // The reason every reader names (a device such as /dev/null "is not a regular file", not "no such file").
  if (const std::string why = unreadable_reason(path); !why.empty()) refuse(path, why + "; expected a shared library");
  register_input(path);  // no output of the command may replace it (output_path.hpp)
  // A path without '/' would be searched in the library path: name the file itself.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) refuse(path, fmt::format("not a loadable shared library ({})", text(dlerror())));
  dlerror();
  void* symbol = dlsym(handle, "hetlb_strategy_entry");
  if (!symbol) refuse(path, "no entry point hetlb_strategy_entry; expected a library built against hetlb/strategy_plugin.h");
  const auto entry_fn = reinterpret_cast<const hetlb_strategy_plugin* (*)()>(symbol);
  const hetlb_strategy_plugin* entry = entry_fn();
  if (!entry) refuse(path, "hetlb_strategy_entry() returned NULL; expected its description");
  if (entry->interface_version != HETLB_STRATEGY_PLUGIN_VERSION)
    refuse(path, fmt::format("interface version {}; expected {} (rebuild it against this hetlb's strategy_plugin.h)",
                             entry->interface_version, HETLB_STRATEGY_PLUGIN_VERSION));
  if (!entry->decide) refuse(path, "decide is NULL; expected the decision function");
  if (entry->param_count < 0 || (entry->param_count > 0 && !entry->params))
    refuse(path, fmt::format("param_count {} without parameters; expected a list of param_count entries", entry->param_count));
  auto rule = std::make_unique<Rule>();
  rule->name = std::string(kPrefix) + path;
  const std::string name = line_of_text(path, "name", entry->name, 200);
  const std::string label = line_of_text(path, "label", entry->label, 200);
  rule->label = label.empty() ? name : label;
  if (rule->label.empty()) rule->label = path;
  rule->summary = line_of_text(path, "summary", entry->summary, 1000);
  detail::install_plugin_guards();
  for (int i = 0; i < entry->param_count; ++i) {
    const hetlb_strategy_param& p = entry->params[i];
    if (text(p.name).empty()) refuse(path, fmt::format("parameter {} has no name", i));
    // The name is given as NAME=VALUE and is a results column (param_NAME): letters, digits and '_', once.
    const std::string name = p.name;
    if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
      refuse(path, fmt::format("parameter \"{}\": expected a name of letters, digits and '_'", name));
    if (rule->param_index(name) >= 0)
      refuse(path, fmt::format("parameter {} declared twice; expected distinct names", name));
    if (p.type < HETLB_PARAM_REAL || p.type > HETLB_PARAM_FLAG)
      refuse(path, fmt::format("parameter {}: type {}; expected 0 (real), 1 (integer) or 2 (flag)", p.name, p.type));
    if (!(p.min <= p.max))
      refuse(path, fmt::format("parameter {}: range [{}, {}]; expected min <= max", p.name, p.min, p.max));
    rule->params.push_back(Param{p.name, static_cast<ParamType>(p.type), p.default_value, p.min, p.max,
                                 line_of_text(path, "help of a parameter", p.help, 1000)});
  }
  for (const Param& p : rule->params) try {
      check_param(*rule, p, p.default_value);
    } catch (const Error& e) {
      refuse(path, fmt::format("default of parameter {}: {}", p.name, e.what()));
    }
  rule->decide = decide_plugin;
  rule->context = entry;
  rule->origin = path;
  rule->identity = identity_of(file);
  rule->trusted = false;
  return rule;
}

}  // namespace

std::string plugin_identity(const std::string& path) { return identity_of(path); }

const Rule& find_builtin_or_plugin(const std::string& name) {
  if (name.rfind(kPrefix, 0) != 0)
    throw Error(fmt::format("strategy \"{}\": unknown; expected {} or plugin:PATH", name, builtin_names()));
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Rule>> loaded;
  const std::lock_guard lock(mutex);
  auto& slot = loaded[name];
  if (!slot) {
    try {
      slot = load(name.substr(std::string(kPrefix).size()));
    } catch (...) {
      loaded.erase(name);
      throw;
    }
  }
  return *slot;
}

}  // namespace hetlb::diffusion
