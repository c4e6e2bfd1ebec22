// A spec's plug-in strategies read without loading them (a report runs nothing, no plug-in code
// included): their parameters' defaults are unknown, so the "params" key cell of their settings is
// taken from the results.
#pragma once
#include <map>
#include <string>

#include "results_file.hpp"
#include "spec.hpp"

namespace hetlb::campaign {

// The "params" cell of each Setting::unloaded_plugin: of the rows with its other key values, the one
// whose parameters (NAME=VALUE;...) are all among those the setting gives, the most of them (those left
// are at the plug-in's defaults, which a run leaves out of the cell). A setting without such a row keeps
// the parameters given (it has no result to show).
void resolve_unloaded_plugins(Spec& spec, const std::map<std::string, Row>& rows);

// Whether the spec has such settings.
bool has_unloaded_plugins(const Spec& spec);

}  // namespace hetlb::campaign
