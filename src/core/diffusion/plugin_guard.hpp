// Guards around a strategy plug-in's decide(), which is user code in hetlb's process: a decide() that
// calls exit(), crashes (a bad pointer, abort(), a floating-point trap) or does not return ends the
// command with one line naming the plug-in and the node, exit status 1, instead of a bare signal, a
// status of the plug-in's choosing or a hang. Everything else (hetlb's own faults) behaves as before.
#pragma once

#include <string>

namespace hetlb::diffusion::detail {

// Installs the guards, once per process (the first plug-in loaded does). The no-return limit is
// HETLB_PLUGIN_DECIDE_TIMEOUT seconds from the environment (default 60; 0: none).
void install_plugin_guards();

// This thread is inside the decide() of the plug-in `origin` (its path) for `node`, for the object's life.
class PluginCall {
 public:
  PluginCall(const std::string& origin, int node);
  ~PluginCall();
  PluginCall(const PluginCall&) = delete;
  PluginCall& operator=(const PluginCall&) = delete;
};

}  // namespace hetlb::diffusion::detail
