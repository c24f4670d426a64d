// Subcommand registry: each cli/<name>.cc registers itself, so main.cc never lists commands.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "quiver/core/status.h"

namespace quiver::cli {

// Adds the command's options to `app` and returns what to run once parsing succeeded.
using CommandSetup = std::function<std::function<Status()>(CLI::App* app)>;

struct CommandSpec {
  std::string name;
  std::string description;
  int order;  // position in `quiver --help`
  CommandSetup setup;
};

// Called from a static initialiser in each command's file; returns true so it can seed one.
bool RegisterCommand(CommandSpec spec);
const std::vector<CommandSpec>& RegisteredCommands();

}  // namespace quiver::cli
