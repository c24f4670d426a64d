// `quiver meta FILE`: a Parquet or ORC file's footer metadata as text or JSON, or with
// --bloom-probe each row group's bloom filter of one column asked about one value
// (describe/describe.h).
#include <cstdio>
#include <memory>

#include "quiver/cli/command.h"
#include "quiver/cli/encryption_options.h"
#include "quiver/describe/describe.h"

namespace quiver::cli {
namespace {

struct MetaArgs {
  std::string path;
  describe::DescribeOptions options;
  std::shared_ptr<EncryptionCliOptions> crypt = std::make_shared<EncryptionCliOptions>();
  std::string probe;  // column=value
};

Status RunMeta(const MetaArgs& in) {
  MetaArgs a = in;
  QUIVER_ASSIGN_OR_RETURN(a.options.decryption, in.crypt->ToDecryption());
  QUIVER_ASSIGN_OR_RETURN(const std::string out, a.probe.empty()
                                                     ? describe::DescribeMetadata(a.path, a.options)
                                                     : describe::DescribeBloomFilters(a.path, a.probe, a.options));
  std::fwrite(out.data(), 1, out.size(), stdout);
  return Status::OK();
}

const bool registered = RegisterCommand({"meta", "Print a Parquet or ORC file's footer metadata", 21, [](CLI::App* app) {
  auto a = std::make_shared<MetaArgs>();
  app->add_option("file", a->path, "Parquet or ORC file")->required();
  app->add_flag("--json", a->options.json, "Print JSON");
  app->add_option("--row-group", a->options.row_group, "Only this row group, or ORC stripe (others are not decoded)");
  app->add_option("--columns", a->options.columns, "Only these columns (dotted paths; a group selects its leaves)")
      ->delimiter(',');
  AddEncryptionOptions(app, a->crypt, false);
  app->add_option("--bloom-probe", a->probe,
                  "Instead of the footer: whether each row group's bloom filter of a column may hold a value, "
                  "column=value (integers, numbers, YYYY-MM-DD dates, strings)");
  return std::function<Status()>([a] { return RunMeta(*a); });
}});

}  // namespace
}  // namespace quiver::cli
