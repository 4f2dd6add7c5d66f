/// \file
/// TypeExpr builders (one per MPI constructor), combiner keywords and structural equality.
/// The builders only lay the C call's arguments out in MPI_Type_get_contents order; they never
/// validate (translate() does, and says what is wrong).
#include "passes/TypeExpr.h"

namespace tempi {

const char *combinerName(Combiner c) {
  switch (c) {
  case Combiner::Named: return "named";
  case Combiner::Dup: return "dup";
  case Combiner::Contiguous: return "contiguous";
  case Combiner::Vector: return "vector";
  case Combiner::Hvector: return "hvector";
  case Combiner::Indexed: return "indexed";
  case Combiner::Hindexed: return "hindexed";
  case Combiner::IndexedBlock: return "indexed_block";
  case Combiner::HindexedBlock: return "hindexed_block";
  case Combiner::Struct: return "struct";
  case Combiner::Subarray: return "subarray";
  case Combiner::Darray: return "darray";
  case Combiner::Resized: return "resized";
  }
  return "unknown";
}

bool operator==(const TypeExpr &a, const TypeExpr &b) {
  if (a.combiner != b.combiner || a.name != b.name || a.integers != b.integers ||
      a.addresses != b.addresses || a.types.size() != b.types.size())
    return false;
  for (size_t i = 0; i < a.types.size(); ++i) {
    if (a.types[i] == b.types[i]) continue;
    if (!a.types[i] || !b.types[i] || !(*a.types[i] == *b.types[i])) return false;
  }
  return true;
}

namespace expr {
namespace {
TypeExprPtr make(Combiner c, std::vector<int64_t> ints, std::vector<int64_t> addrs,
                 std::vector<TypeExprPtr> types) {
  auto e = std::make_shared<TypeExpr>();
  e->combiner = c;
  e->integers = std::move(ints);
  e->addresses = std::move(addrs);
  e->types = std::move(types);
  return e;
}
void append(std::vector<int64_t> &to, const std::vector<int64_t> &from) {
  to.insert(to.end(), from.begin(), from.end());
}
} // namespace

TypeExprPtr named(std::string name) {
  auto e = std::make_shared<TypeExpr>();
  e->combiner = Combiner::Named;
  e->name = std::move(name);
  return e;
}
TypeExprPtr dup(TypeExprPtr old) { return make(Combiner::Dup, {}, {}, {std::move(old)}); }
TypeExprPtr contiguous(int64_t count, TypeExprPtr old) {
  return make(Combiner::Contiguous, {count}, {}, {std::move(old)});
}
TypeExprPtr vector(int64_t count, int64_t blocklength, int64_t stride, TypeExprPtr old) {
  return make(Combiner::Vector, {count, blocklength, stride}, {}, {std::move(old)});
}
TypeExprPtr hvector(int64_t count, int64_t blocklength, int64_t strideBytes, TypeExprPtr old) {
  return make(Combiner::Hvector, {count, blocklength}, {strideBytes}, {std::move(old)});
}
TypeExprPtr indexed(std::vector<int64_t> blocklengths, std::vector<int64_t> displacements,
                    TypeExprPtr old) {
  std::vector<int64_t> ints{static_cast<int64_t>(blocklengths.size())};
  append(ints, blocklengths);
  append(ints, displacements);
  return make(Combiner::Indexed, std::move(ints), {}, {std::move(old)});
}
TypeExprPtr hindexed(std::vector<int64_t> blocklengths, std::vector<int64_t> displacementsBytes,
                     TypeExprPtr old) {
  std::vector<int64_t> ints{static_cast<int64_t>(blocklengths.size())};
  append(ints, blocklengths);
  return make(Combiner::Hindexed, std::move(ints), std::move(displacementsBytes), {std::move(old)});
}
TypeExprPtr indexedBlock(int64_t blocklength, std::vector<int64_t> displacements,
                         TypeExprPtr old) {
  std::vector<int64_t> ints{static_cast<int64_t>(displacements.size()), blocklength};
  append(ints, displacements);
  return make(Combiner::IndexedBlock, std::move(ints), {}, {std::move(old)});
}
TypeExprPtr hindexedBlock(int64_t blocklength, std::vector<int64_t> displacementsBytes,
                          TypeExprPtr old) {
  std::vector<int64_t> ints{static_cast<int64_t>(displacementsBytes.size()), blocklength};
  return make(Combiner::HindexedBlock, std::move(ints), std::move(displacementsBytes),
              {std::move(old)});
}
TypeExprPtr structType(std::vector<int64_t> blocklengths, std::vector<int64_t> displacementsBytes,
                       std::vector<TypeExprPtr> types) {
  std::vector<int64_t> ints{static_cast<int64_t>(blocklengths.size())};
  append(ints, blocklengths);
  return make(Combiner::Struct, std::move(ints), std::move(displacementsBytes), std::move(types));
}
TypeExprPtr subarray(std::vector<int64_t> sizes, std::vector<int64_t> subsizes,
                     std::vector<int64_t> starts, Order order, TypeExprPtr old) {
  std::vector<int64_t> ints{static_cast<int64_t>(sizes.size())};
  append(ints, sizes);
  append(ints, subsizes);
  append(ints, starts);
  ints.push_back(static_cast<int64_t>(order));
  return make(Combiner::Subarray, std::move(ints), {}, {std::move(old)});
}
TypeExprPtr darray(int64_t size, int64_t rank, std::vector<int64_t> gsizes,
                   std::vector<Distrib> distribs, std::vector<int64_t> dargs,
                   std::vector<int64_t> psizes, Order order, TypeExprPtr old) {
  std::vector<int64_t> ints{size, rank, static_cast<int64_t>(gsizes.size())};
  append(ints, gsizes);
  for (Distrib d : distribs) ints.push_back(static_cast<int64_t>(d));
  append(ints, dargs);
  append(ints, psizes);
  ints.push_back(static_cast<int64_t>(order));
  return make(Combiner::Darray, std::move(ints), {}, {std::move(old)});
}
TypeExprPtr resized(int64_t lb, int64_t extent, TypeExprPtr old) {
  return make(Combiner::Resized, {}, {lb, extent}, {std::move(old)});
}
} // namespace expr

} // namespace tempi
