# cmake -DFILE=<rewritten source> -DMIN=<n> -P rewrite_count_plans.cmake
# Fails unless the rewritten source defines at least MIN static plans and calls the runtime with
# them, directly or through an array of plans (tempi_Alltoallw) (used by ../rewrite_tests.cmake).
file(READ ${FILE} text)
string(REGEX MATCHALL "static tempi_static_plan tempi_gen_plan_[0-9a-f]+" plans "${text}")
string(REGEX MATCHALL "tempi_[A-Z][a-z_]*\\([^;]*(&tempi_gen_plan_[0-9a-f]+|tempi_gen_plans_[0-9]+)"
       calls "${text}")
list(LENGTH plans nplans)
list(LENGTH calls ncalls)
message(STATUS "${FILE}: ${nplans} plans, ${ncalls} rewritten calls")
if(nplans LESS MIN OR ncalls LESS 1)
  message(FATAL_ERROR "expected at least ${MIN} plans and one rewritten call")
endif()
