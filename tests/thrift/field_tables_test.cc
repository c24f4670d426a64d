// Every Thrift struct of the Parquet model against its field table: the table names each
// member once (the member count itself is checked when the decoder or encoder is compiled).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <string>

#include "quiver/parquet/metadata_fields_internal.h"
#include "quiver/thrift/field_table_internal.h"

namespace quiver::thrift {
namespace {

template <typename T> struct ElementOf { using type = T; };
template <typename T> struct ElementOf<List<T>> { using type = T; };

struct Visitor {
  std::set<std::string> seen;
  std::vector<std::string> problems;

  template <typename T>
  void Visit() {
    if (!seen.insert(StructInfo<T>::kName).second) return;
    static_assert(TableCoversMembers<T>());
    T t{};
    auto members = MemberAddresses(t);
    auto fields = FieldAddresses(t);
    std::sort(members.begin(), members.end());
    std::sort(fields.begin(), fields.end());
    if (members != fields) problems.push_back(StructInfo<T>::kName);
    VisitFields<T>(std::make_index_sequence<kFieldCount<T>>{});
  }

  template <typename T, size_t... I>
  void VisitFields(std::index_sequence<I...>) {
    (VisitMember<typename Unoptional<typename std::remove_cvref_t<
         decltype(std::get<I>(StructInfo<T>::kFields))>::member_type>::type>(),
     ...);
  }

  template <typename M>
  void VisitMember() {
    using E = typename ElementOf<M>::type;
    if constexpr (IsStruct<E>::value) Visit<E>();
  }
};

TEST(FieldTables, EachEntryNamesADifferentMemberOfEveryStruct) {
  Visitor v;
  v.Visit<parquet::FileMetaData>();
  v.Visit<parquet::PageHeader>();
  v.Visit<parquet::ColumnIndex>();
  v.Visit<parquet::OffsetIndex>();
  v.Visit<parquet::BloomFilterHeader>();
  v.Visit<parquet::FileCryptoMetaData>();
  EXPECT_EQ(v.problems, std::vector<std::string>{});
  // Every struct of the model was reached from those roots.
  EXPECT_EQ(v.seen.size(), 61u);
}

}  // namespace
}  // namespace quiver::thrift
