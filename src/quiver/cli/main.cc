// The `quiver` program: parses the command line and runs one registered subcommand.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "quiver/cli/command.h"
#include "quiver/cli/messages.h"
#include "quiver/core/memory_pool.h"
#include "quiver/io/atomic_file.h"

int main(int argc, char** argv) {
  using namespace quiver;
  // Ctrl-C and SIGTERM must not leave half-written outputs behind.
  io::InstallInterruptCleanup();
  ConfigureAllocatorForStreaming();

  CLI::App app{"quiver: columnar data files (CSV, Parquet, ORC) — convert, inspect, read"};
  app.name("quiver");
  app.set_version_flag("--version", std::string("quiver ") + QUIVER_VERSION_STRING);
  app.require_subcommand(1);
  app.fallthrough(false);

  auto commands = cli::RegisteredCommands();
  std::sort(commands.begin(), commands.end(),
            [](const cli::CommandSpec& a, const cli::CommandSpec& b) { return a.order < b.order; });
  std::function<Status()> action;
  std::vector<std::pair<CLI::App*, std::function<Status()>>> actions;
  for (const auto& spec : commands) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.description);
    actions.emplace_back(sub, spec.setup(sub));
  }

  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const auto& spec : commands) known |= spec.name == argv[1];
    if (!known) {
      std::fprintf(stderr, "quiver: unknown command '%s'\nRun 'quiver --help' for the list of commands.\n", argv[1]);
      return 2;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "quiver: %s\n", e.what());
    std::fprintf(stderr, "Run 'quiver --help' for usage.\n");
    return 2;
  }

  for (auto& [sub, run] : actions) {
    if (sub->parsed()) {
      Status st = run();
      if (!st.ok()) {
        std::fprintf(stderr, "quiver: %s\n", cli::ErrorMessage(st).c_str());
        return 1;
      }
      return 0;
    }
  }
  return 2;
}
