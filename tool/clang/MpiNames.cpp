/// \file
/// The tables behind MpiNames.h: argument roles of every datatype constructor of MPI-4.1 (and the
/// deprecated MPI-1 names), and the communication calls the rewriter knows.
#include "tool/clang/MpiNames.h"

#include <deque>
#include <string>

namespace tempi::frontend {
namespace {

using R = ArgRole;

std::vector<ConstructorSpec> makeConstructors() {
  std::vector<ConstructorSpec> base = {
      {"MPI_Type_dup", Combiner::Dup, {{"oldtype", R::OldType}, {"newtype", R::NewType}}},
      {"MPI_Type_contiguous", Combiner::Contiguous,
       {{"count", R::Int}, {"oldtype", R::OldType}, {"newtype", R::NewType}}},
      {"MPI_Type_vector", Combiner::Vector,
       {{"count", R::Int}, {"blocklength", R::Int}, {"stride", R::Int}, {"oldtype", R::OldType},
        {"newtype", R::NewType}}},
      {"MPI_Type_create_hvector", Combiner::Hvector,
       {{"count", R::Int}, {"blocklength", R::Int}, {"stride", R::Aint}, {"oldtype", R::OldType},
        {"newtype", R::NewType}}},
      {"MPI_Type_indexed", Combiner::Indexed,
       {{"count", R::Int}, {"array_of_blocklengths", R::IntArray, 0},
        {"array_of_displacements", R::IntArray, 0}, {"oldtype", R::OldType},
        {"newtype", R::NewType}}},
      {"MPI_Type_create_hindexed", Combiner::Hindexed,
       {{"count", R::Int}, {"array_of_blocklengths", R::IntArray, 0},
        {"array_of_displacements", R::AintArray, 0}, {"oldtype", R::OldType},
        {"newtype", R::NewType}}},
      {"MPI_Type_create_indexed_block", Combiner::IndexedBlock,
       {{"count", R::Int}, {"blocklength", R::Int}, {"array_of_displacements", R::IntArray, 0},
        {"oldtype", R::OldType}, {"newtype", R::NewType}}},
      {"MPI_Type_create_hindexed_block", Combiner::HindexedBlock,
       {{"count", R::Int}, {"blocklength", R::Int}, {"array_of_displacements", R::AintArray, 0},
        {"oldtype", R::OldType}, {"newtype", R::NewType}}},
      {"MPI_Type_create_struct", Combiner::Struct,
       {{"count", R::Int}, {"array_of_blocklengths", R::IntArray, 0},
        {"array_of_displacements", R::AintArray, 0}, {"array_of_types", R::TypeArray, 0},
        {"newtype", R::NewType}}},
      {"MPI_Type_create_subarray", Combiner::Subarray,
       {{"ndims", R::Int}, {"array_of_sizes", R::IntArray, 0},
        {"array_of_subsizes", R::IntArray, 0}, {"array_of_starts", R::IntArray, 0},
        {"order", R::Order}, {"oldtype", R::OldType}, {"newtype", R::NewType}}},
      {"MPI_Type_create_darray", Combiner::Darray,
       {{"size", R::Int}, {"rank", R::Int}, {"ndims", R::Int}, {"array_of_gsizes", R::IntArray, 2},
        {"array_of_distribs", R::DistribArray, 2}, {"array_of_dargs", R::DargArray, 2},
        {"array_of_psizes", R::IntArray, 2}, {"order", R::Order}, {"oldtype", R::OldType},
        {"newtype", R::NewType}}},
      {"MPI_Type_create_resized", Combiner::Resized,
       {{"oldtype", R::OldType}, {"lb", R::Aint}, {"extent", R::Aint}, {"newtype", R::NewType}}},
  };
  std::vector<ConstructorSpec> all = base;
  // The MPI-1 names removed in MPI-3: same arguments as their MPI-2 replacements.
  auto alias = [&](const char *oldName, const char *newName) {
    for (const ConstructorSpec &c : base)
      if (std::string_view(c.name) == newName) {
        ConstructorSpec d = c;
        d.name = oldName;
        d.deprecated = true;
        all.push_back(d);
      }
  };
  alias("MPI_Type_hvector", "MPI_Type_create_hvector");
  alias("MPI_Type_hindexed", "MPI_Type_create_hindexed");
  alias("MPI_Type_struct", "MPI_Type_create_struct");
  // The MPI-4 large-count forms: MPI_Count arguments, same roles.
  static std::vector<std::string> names; // keeps the `_c` names alive
  names.reserve(base.size());
  for (const ConstructorSpec &c : base) {
    if (c.combiner == Combiner::Dup)
      continue; // MPI_Type_dup has no `_c` form
    names.push_back(std::string(c.name) + "_c");
    ConstructorSpec d = c;
    d.name = names.back().c_str();
    d.largeCount = true;
    all.push_back(d);
  }
  return all;
}

std::vector<CommCallSpec> makeCommCalls() {
  std::vector<CommCallSpec> calls = {
      {"MPI_Send", "tempi_Send", {2}},
      {"MPI_Ssend", "tempi_Ssend", {2}},
      {"MPI_Rsend", "tempi_Rsend", {2}},
      {"MPI_Bsend", "tempi_Bsend", {2}},
      {"MPI_Isend", "tempi_Isend", {2}, false, "tempi_Isend_deferred"},
      {"MPI_Issend", "tempi_Issend", {2}, false, "tempi_Issend_deferred"},
      {"MPI_Recv", "tempi_Recv", {2}},
      {"MPI_Irecv", "tempi_Irecv", {2}},
      {"MPI_Sendrecv", "tempi_Sendrecv", {2, 7}},
      {"MPI_Sendrecv_replace", "tempi_Sendrecv_replace", {2}},
      {"MPI_Send_init", "tempi_Send_init", {2}},
      {"MPI_Recv_init", "tempi_Recv_init", {2}},
      {"MPI_Pack", "tempi_Pack", {2}},
      {"MPI_Unpack", "tempi_Unpack", {5}},
      {"MPI_Pack_size", "tempi_Pack_size", {1}},
      {"MPI_Neighbor_alltoallv", "tempi_Neighbor_alltoallv", {3, 7}},
      {"MPI_Alltoallv", "tempi_Alltoallv", {3, 7}},
      {"MPI_Neighbor_alltoallw", "tempi_Neighbor_alltoallw", {3, 7}, true},
      {"MPI_Alltoallw", "tempi_Alltoallw", {3, 7}, true},
  };
  // The MPI-4 large-count forms: the datatype arguments sit where they do in the int forms, and
  // tempi.h declares tempi_X_c (and tempi_Isend_deferred_c, ...) for every one of them.
  static std::deque<std::string> names; // storage for the names (a deque never moves them)
  size_t n = calls.size();
  for (size_t i = 0; i < n; ++i) {
    CommCallSpec c = calls[i];
    names.push_back(std::string(c.name) + "_c");
    c.name = names.back().c_str();
    names.push_back(std::string(c.tempiName) + "_c");
    c.tempiName = names.back().c_str();
    if (c.deferredName) {
      names.push_back(std::string(c.deferredName) + "_c");
      c.deferredName = names.back().c_str();
    }
    c.largeCount = true;
    calls.push_back(c);
  }
  return calls;
}

} // namespace

const std::vector<ConstructorSpec> &allConstructors() {
  static const std::vector<ConstructorSpec> all = makeConstructors();
  return all;
}

const ConstructorSpec *findConstructor(std::string_view name) {
  if (name.substr(0, 9) != "MPI_Type_")
    return nullptr;
  for (const ConstructorSpec &c : allConstructors())
    if (name == c.name)
      return &c;
  return nullptr;
}

TypeManagement findTypeManagement(std::string_view name) {
  if (name == "MPI_Type_commit")
    return TypeManagement::Commit;
  if (name == "MPI_Type_free")
    return TypeManagement::Free;
  return TypeManagement::None;
}

const std::vector<CommCallSpec> &allCommCalls() {
  static const std::vector<CommCallSpec> all = makeCommCalls();
  return all;
}

const CommCallSpec *findCommCall(std::string_view name) {
  if (name.substr(0, 4) != "MPI_")
    return nullptr;
  for (const CommCallSpec &c : allCommCalls())
    if (name == c.name)
      return &c;
  return nullptr;
}

const TypeQuerySpec *findTypeQuery(std::string_view name) {
  using F = TypeQueryField;
  static const std::vector<TypeQuerySpec> queries = {
      {"MPI_Type_size", {F::Size}},
      {"MPI_Type_size_x", {F::Size}},
      {"MPI_Type_size_c", {F::Size}},
      {"MPI_Type_get_extent", {F::Lb, F::Extent}},
      {"MPI_Type_get_extent_x", {F::Lb, F::Extent}},
      {"MPI_Type_get_extent_c", {F::Lb, F::Extent}},
      {"MPI_Type_get_true_extent", {F::TrueLb, F::TrueExtent}},
      {"MPI_Type_get_true_extent_x", {F::TrueLb, F::TrueExtent}},
      {"MPI_Type_get_true_extent_c", {F::TrueLb, F::TrueExtent}},
      {"MPI_Type_extent", {F::Extent}},
      {"MPI_Type_lb", {F::Lb}},
      {"MPI_Type_ub", {F::Ub}},
  };
  if (name.substr(0, 9) != "MPI_Type_")
    return nullptr;
  for (const TypeQuerySpec &q : queries)
    if (name == q.name)
      return &q;
  return nullptr;
}

namespace {
std::vector<UnrewrittenCallSpec> makeUnrewrittenCalls() {
  // docs/runtime.md, "Host-mirrored calls" and "Not done".
  const char *mirrored = "libtempi serves a device buffer there through a host copy";
  const char *notInterposed =
      "libtempi does not interpose it either, so a device buffer reaches the MPI as it is";
  std::vector<UnrewrittenCallSpec> calls;
  auto add = [&](std::initializer_list<const char *> names, std::vector<int> args,
                 const char *runtime) {
    for (const char *n : names)
      calls.push_back({n, args, runtime});
  };
  // Point-to-point calls libtempi serves itself (InterposeP2PMore.cpp) that the tool does not
  // rewrite.
  const char *packedByRuntime =
      "libtempi packs a device buffer there with the plan it made at MPI_Type_commit";
  add({"MPI_Ibsend", "MPI_Irsend", "MPI_Bsend_init", "MPI_Ssend_init", "MPI_Rsend_init",
       "MPI_Mrecv", "MPI_Imrecv"},
      {2}, packedByRuntime);
  add({"MPI_Isendrecv"}, {2, 7}, mirrored);
  add({"MPI_Isendrecv_replace"}, {2}, mirrored);
  add({"MPI_Bcast", "MPI_Ibcast"}, {2}, mirrored);
  add({"MPI_Gather", "MPI_Igather", "MPI_Scatter", "MPI_Iscatter", "MPI_Allgather",
       "MPI_Iallgather", "MPI_Alltoall", "MPI_Ialltoall", "MPI_Neighbor_allgather",
       "MPI_Ineighbor_allgather", "MPI_Neighbor_alltoall", "MPI_Ineighbor_alltoall"},
      {2, 5}, mirrored);
  add({"MPI_Gatherv", "MPI_Igatherv", "MPI_Allgatherv", "MPI_Iallgatherv",
       "MPI_Neighbor_allgatherv", "MPI_Ineighbor_allgatherv"},
      {2, 6}, mirrored);
  add({"MPI_Scatterv", "MPI_Iscatterv"}, {3, 6}, mirrored);
  add({"MPI_Reduce", "MPI_Ireduce", "MPI_Allreduce", "MPI_Iallreduce", "MPI_Reduce_scatter",
       "MPI_Ireduce_scatter", "MPI_Reduce_scatter_block", "MPI_Ireduce_scatter_block", "MPI_Scan",
       "MPI_Iscan", "MPI_Exscan", "MPI_Iexscan"},
      {3}, mirrored);
  add({"MPI_Ialltoallv", "MPI_Ineighbor_alltoallv"}, {3, 7}, mirrored);
  // MPI-4's persistent collectives and partitioned point-to-point.
  add({"MPI_Bcast_init"}, {2}, notInterposed);
  add({"MPI_Gather_init", "MPI_Scatter_init", "MPI_Allgather_init", "MPI_Alltoall_init",
       "MPI_Neighbor_allgather_init", "MPI_Neighbor_alltoall_init"},
      {2, 5}, notInterposed);
  add({"MPI_Gatherv_init", "MPI_Allgatherv_init", "MPI_Neighbor_allgatherv_init"}, {2, 6},
      notInterposed);
  add({"MPI_Scatterv_init"}, {3, 6}, notInterposed);
  add({"MPI_Reduce_init", "MPI_Allreduce_init", "MPI_Reduce_scatter_init",
       "MPI_Reduce_scatter_block_init", "MPI_Scan_init", "MPI_Exscan_init"},
      {3}, notInterposed);
  add({"MPI_Alltoallv_init", "MPI_Neighbor_alltoallv_init"}, {3, 7}, notInterposed);
  add({"MPI_Psend_init", "MPI_Precv_init"}, {3}, notInterposed);
  add({"MPI_Put", "MPI_Get", "MPI_Rput", "MPI_Rget", "MPI_Accumulate", "MPI_Raccumulate"}, {2, 6},
      notInterposed);
  add({"MPI_Get_accumulate", "MPI_Rget_accumulate"}, {2, 5, 9}, notInterposed);
  add({"MPI_File_read", "MPI_File_read_all", "MPI_File_read_shared", "MPI_File_read_ordered",
       "MPI_File_write", "MPI_File_write_all", "MPI_File_write_shared", "MPI_File_write_ordered",
       "MPI_File_iread", "MPI_File_iread_all", "MPI_File_iread_shared", "MPI_File_iwrite",
       "MPI_File_iwrite_all", "MPI_File_iwrite_shared", "MPI_File_read_all_begin",
       "MPI_File_write_all_begin", "MPI_File_read_ordered_begin", "MPI_File_write_ordered_begin"},
      {3}, notInterposed);
  add({"MPI_Pack_external"}, {3}, notInterposed);
  add({"MPI_Unpack_external"}, {6}, notInterposed);
  add({"MPI_File_read_at", "MPI_File_read_at_all", "MPI_File_write_at", "MPI_File_write_at_all",
       "MPI_File_iread_at", "MPI_File_iread_at_all", "MPI_File_iwrite_at",
       "MPI_File_iwrite_at_all", "MPI_File_read_at_all_begin", "MPI_File_write_at_all_begin"},
      {4}, notInterposed);
  return calls;
}
} // namespace

const UnrewrittenCallSpec *findUnrewrittenCall(std::string_view name) {
  static const std::vector<UnrewrittenCallSpec> all = makeUnrewrittenCalls();
  if (name.substr(0, 4) != "MPI_")
    return nullptr;
  if (name.ends_with("_c")) // the large-count forms keep the datatypes where they were
    name.remove_suffix(2);
  for (const UnrewrittenCallSpec &c : all)
    if (name == c.name)
      return &c;
  return nullptr;
}

const NamedTypeInfo *findNamedType(std::string_view name) { return lookupNamedType(name); }

} // namespace tempi::frontend
