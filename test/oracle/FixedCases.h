/// \file
/// Named sets of hand-written datatypes for the focused oracle tests (tempi-check-types --case).
#pragma once

#include "Checker.h"

#include <string>
#include <vector>

namespace tempi::oracle {

/// Runs case set `name` through `c`; returns how many items passed and failed through the
/// out-parameters, or false when there is no such case set.
bool runCase(const std::string &name, Checker &c, int &passed, int &failed);
std::vector<std::string> caseNames();

} // namespace tempi::oracle
