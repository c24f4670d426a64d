#include "quiver/cli/command.h"

namespace quiver::cli {

namespace {
// A function-local static: command files register during static initialisation, in an
// order the linker chooses.
std::vector<CommandSpec>& Registry() {
  static std::vector<CommandSpec> commands;
  return commands;
}
}  // namespace

bool RegisterCommand(CommandSpec spec) {
  Registry().push_back(std::move(spec));
  return true;
}

const std::vector<CommandSpec>& RegisteredCommands() { return Registry(); }

}  // namespace quiver::cli
