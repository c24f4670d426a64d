// The README's ten lines of library code, compiled and checked here so that they stay true.
#include <gtest/gtest.h>

#include <sstream>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/c_data_interface.h"
#include "quiver/columnar/pretty_print.h"

namespace {

quiver::Status ReadmeExample(std::ostream& cout, ArrowArray* exported) {
  quiver::NumericBuilder<int64_t> ids(quiver::int64());
  QUIVER_RETURN_NOT_OK(ids.Append(42));
  QUIVER_RETURN_NOT_OK(ids.AppendNull());
  QUIVER_ASSIGN_OR_RETURN(quiver::Array array, ids.Finish());
  cout << array.ToString() << "\n";
  ArrowArray& c_array = *exported;
  QUIVER_RETURN_NOT_OK(quiver::ExportArray(array, &c_array));
  return quiver::Status::OK();
}

TEST(Readme, LibraryExampleRunsAsDocumented) {
  std::ostringstream out;
  ArrowArray c;
  ASSERT_TRUE(ReadmeExample(out, &c).ok());
  EXPECT_EQ(out.str(), "[42, null]\n");
  EXPECT_EQ(c.length, 2);
  EXPECT_EQ(c.null_count, 1);
  c.release(&c);
}

}  // namespace
