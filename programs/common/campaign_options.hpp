// Command-line options shared by `hetlb campaign` and `hetlb-campaign`.
#pragma once
#include <CLI/CLI.hpp>

#include "campaign.hpp"

namespace hetlb::campaign {

void add_options(CLI::App& app, Options& o);

}  // namespace hetlb::campaign
