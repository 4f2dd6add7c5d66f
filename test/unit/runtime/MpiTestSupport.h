/// \file
/// What the runtime unit tests that call MPI share: MPI_Init and MPI_Finalize around the test
/// program (a GoogleTest environment, registered by including this header: each test binary is
/// one source file), and a datatype handle freed at the end of its scope.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

namespace tempi::test {

class MpiEnvironment : public ::testing::Environment {
public:
  void SetUp() override { MPI_Init(nullptr, nullptr); }
  void TearDown() override { MPI_Finalize(); }
};
inline const auto *const kMpiEnvironment =
    ::testing::AddGlobalTestEnvironment(new MpiEnvironment);

/// A committed (or about to be) datatype, freed when it goes out of scope.
struct Committed {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  ~Committed() {
    if (type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
  }
};

} // namespace tempi::test
