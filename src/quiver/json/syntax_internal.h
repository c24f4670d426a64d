// Where a JSON text that failed to parse goes wrong: a plain scan run only after simdjson
// refused a document, to name the offending byte's place (simdjson's DOM errors carry none).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace quiver::json {

struct SyntaxProblem {
  size_t offset = 0;  // of the offending byte in the text (the text's length: it ended early)
  std::string what;   // "expected ':' after an object key", ...
};

// The first problem of `text` as one JSON document (white space around it allowed), with at most
// `max_depth` nested arrays and objects; `what` empty when the scan finds none.
SyntaxProblem FindSyntaxProblem(std::string_view text, size_t max_depth);

}  // namespace quiver::json
