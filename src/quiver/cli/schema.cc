// `quiver schema FILE`: a Parquet, ORC or Arrow IPC file's schema as a tree, or as JSON
// (describe/describe.h).
#include <cstdio>
#include <memory>

#include "quiver/cli/command.h"
#include "quiver/cli/encryption_options.h"
#include "quiver/describe/describe.h"

namespace quiver::cli {
namespace {

struct SchemaArgs {
  std::string path;
  describe::DescribeOptions options;
  std::shared_ptr<EncryptionCliOptions> crypt = std::make_shared<EncryptionCliOptions>();
};

Status RunSchema(const SchemaArgs& in) {
  SchemaArgs a = in;
  QUIVER_ASSIGN_OR_RETURN(a.options.decryption, in.crypt->ToDecryption());
  QUIVER_ASSIGN_OR_RETURN(const std::string out, describe::DescribeSchema(a.path, a.options));
  std::fwrite(out.data(), 1, out.size(), stdout);
  return Status::OK();
}

const bool registered = RegisterCommand({"schema", "Print a Parquet, ORC or Arrow IPC file's schema", 20, [](CLI::App* app) {
  auto a = std::make_shared<SchemaArgs>();
  app->add_option("file", a->path, "Parquet or ORC file, or Arrow IPC file (.arrow, .feather) or stream (.arrows)")->required();
  app->add_flag("--json", a->options.json, "Print JSON instead of a tree");
  app->add_option("--row-group", a->options.row_group, "Check that this row group exists (as `meta` does)");
  app->add_option("--columns", a->options.columns, "Only these columns (dotted paths; a group selects its leaves)")
      ->delimiter(',');
  AddEncryptionOptions(app, a->crypt, false);
  return std::function<Status()>([a] { return RunSchema(*a); });
}});

}  // namespace
}  // namespace quiver::cli
