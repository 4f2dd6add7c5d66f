/// \file
/// The pack-order probe (PackProbe.h): under MPICH, types whose order could differ (negative
/// displacements and strides, unordered block lists) are probed and agree; a plan whose blocks
/// are in another order than the MPI's is found to differ; a forward vector is not probed; an
/// element wider than the probe's limit is not probed.
#include "MpiTestSupport.h"
#include "PackProbe.h"
#include "TypeCache.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>

using namespace tempi;
using tempi::test::Committed;

TEST(PackProbe, UnorderedHindexedAgreesWithTheMpi) {
  int lengths[3] = {2, 1, 1};
  MPI_Aint displs[3] = {24, 0, -16};
  Committed t;
  ASSERT_EQ(MPI_Type_create_hindexed(3, lengths, displs, MPI_INT, &t.type), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&t.type), MPI_SUCCESS);
  TypePlanPtr p = typecache::buildPlan(t.type);
  ASSERT_NE(p->kind, TypePlan::Kind::Mirror) << p->why;
  EXPECT_TRUE(orderWorthProbing(*p));
  EXPECT_EQ(probePackOrder(t.type, *p), ProbeResult::Agrees);
}

TEST(PackProbe, NegativeStrideAndStructAgree) {
  Committed v, s;
  ASSERT_EQ(MPI_Type_vector(5, 2, -3, MPI_DOUBLE, &v.type), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&v.type), MPI_SUCCESS);
  TypePlanPtr pv = typecache::buildPlan(v.type);
  ASSERT_NE(pv->kind, TypePlan::Kind::Mirror) << pv->why;
  EXPECT_TRUE(orderWorthProbing(*pv));
  EXPECT_EQ(probePackOrder(v.type, *pv), ProbeResult::Agrees);

  int lengths[2] = {1, 3};
  MPI_Aint displs[2] = {16, -8};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_SHORT};
  ASSERT_EQ(MPI_Type_create_struct(2, lengths, displs, types, &s.type), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&s.type), MPI_SUCCESS);
  TypePlanPtr ps = typecache::buildPlan(s.type);
  ASSERT_NE(ps->kind, TypePlan::Kind::Mirror) << ps->why;
  EXPECT_EQ(probePackOrder(s.type, *ps), ProbeResult::Agrees);
}

TEST(PackProbe, APlanInAnotherOrderDiffers) {
  // The MPI packs [0,4) then [8,12); the plan packs them the other way round.
  int lengths[2] = {1, 1};
  int displs[2] = {0, 2};
  Committed t;
  ASSERT_EQ(MPI_Type_indexed(2, lengths, displs, MPI_INT, &t.type), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&t.type), MPI_SUCCESS);
  auto swapped = std::make_shared<TypePlan>();
  swapped->kind = TypePlan::Kind::Blocks;
  swapped->size = 8;
  swapped->extent = 12;
  swapped->trueExtent = 12;
  swapped->blocks.offsets = {8, 0};
  swapped->blocks.lengths = {4, 4};
  swapped->blocks.size = 8;
  swapped->blocks.extent = 12;
  EXPECT_EQ(probePackOrder(t.type, *swapped), ProbeResult::Differs);
  swapped->blocks.offsets = {0, 8};
  EXPECT_EQ(probePackOrder(t.type, *swapped), ProbeResult::Agrees);
  swapped->blocks.offsets = {0, 12}; // outside the true extent: wrong, never read
  EXPECT_EQ(probePackOrder(t.type, *swapped), ProbeResult::Differs);
}

TEST(PackProbe, AscendingBlockListsAreNotProbedOthersAre) {
  // Irregular but at increasing addresses: type-map order is address order.
  int lengths[3] = {2, 1, 3};
  MPI_Aint up[3] = {0, 16, 40}, overlapping[3] = {0, 4, 40}, down[3] = {40, 16, 0};
  Committed a, o, d;
  ASSERT_EQ(MPI_Type_create_hindexed(3, lengths, up, MPI_INT, &a.type), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_create_hindexed(3, lengths, overlapping, MPI_INT, &o.type), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_create_hindexed(3, lengths, down, MPI_INT, &d.type), MPI_SUCCESS);
  for (MPI_Datatype *t : {&a.type, &o.type, &d.type}) ASSERT_EQ(MPI_Type_commit(t), MPI_SUCCESS);
  TypePlanPtr pa = typecache::buildPlan(a.type), po = typecache::buildPlan(o.type),
              pd = typecache::buildPlan(d.type);
  ASSERT_EQ(pa->kind, TypePlan::Kind::Blocks) << pa->why;
  EXPECT_FALSE(orderWorthProbing(*pa));
  EXPECT_EQ(probePackOrder(a.type, *pa), ProbeResult::Agrees); // what skipping it assumes
  ASSERT_EQ(po->kind, TypePlan::Kind::Blocks) << po->why;
  EXPECT_TRUE(orderWorthProbing(*po)); // the second block starts inside the first
  ASSERT_EQ(pd->kind, TypePlan::Kind::Blocks) << pd->why;
  EXPECT_TRUE(orderWorthProbing(*pd));
}

TEST(PackProbe, ForwardVectorsAreNotProbedAndWideElementsAreNot) {
  Committed fwd, wide;
  ASSERT_EQ(MPI_Type_vector(4, 1, 4, MPI_FLOAT, &fwd.type), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&fwd.type), MPI_SUCCESS);
  EXPECT_FALSE(orderWorthProbing(*typecache::buildPlan(fwd.type)));
  ASSERT_EQ(MPI_Type_vector(2, 1, -(kProbeSpanLimit / 8), MPI_DOUBLE, &wide.type), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&wide.type), MPI_SUCCESS);
  TypePlanPtr p = typecache::buildPlan(wide.type);
  ASSERT_NE(p->kind, TypePlan::Kind::Mirror) << p->why;
  EXPECT_EQ(probePackOrder(wide.type, *p), ProbeResult::NotProbed);
}

TEST(PackProbe, LongDoublePaddingTheMpiZeroesIsNotADifference) {
  int lengths[2] = {1, 1};
  int displs[2] = {2, 0};
  Committed t;
  ASSERT_EQ(MPI_Type_indexed(2, lengths, displs, MPI_LONG_DOUBLE, &t.type), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&t.type), MPI_SUCCESS);
  TypePlanPtr p = typecache::buildPlan(t.type);
  ASSERT_NE(p->kind, TypePlan::Kind::Mirror) << p->why;
  EXPECT_EQ(probePackOrder(t.type, *p), ProbeResult::Agrees);
}
