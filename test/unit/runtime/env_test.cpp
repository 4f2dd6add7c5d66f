/// \file
/// Settings parsing (Env.h): defaults, every variable, bad values warned about and replaced by
/// the default, and docs/environment.md listing exactly the table's variables and defaults.
#include "Env.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace tempi;

namespace {
Settings parse(std::map<std::string, std::string> env, std::vector<std::string> *w = nullptr) {
  std::vector<std::string> local;
  return parseSettings(
      [&](const char *name) -> const char * {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      w ? w : &local);
}
} // namespace

TEST(Env, DefaultsWhenUnset) {
  std::vector<std::string> w;
  Settings s = parse({}, &w);
  EXPECT_FALSE(s.disable);
  EXPECT_EQ(s.method, Method::Auto);
  EXPECT_EQ(s.log, LogLevel::Warn);
  EXPECT_EQ(s.poolBytes, uint64_t(1) << 30);
  EXPECT_EQ(s.cacheDir, "");
  EXPECT_FALSE(s.noTypeCache);
  EXPECT_TRUE(w.empty());
}

TEST(Env, EveryVariable) {
  std::vector<std::string> w;
  Settings s = parse({{"TEMPI_DISABLE", "1"}, {"TEMPI_METHOD", "OneShot"}, {"TEMPI_LOG", "debug"},
                      {"TEMPI_POOL_BYTES", "256M"}, {"TEMPI_CACHE_DIR", "/x/y"},
                      {"TEMPI_NO_TYPE_CACHE", "yes"}},
                     &w);
  EXPECT_TRUE(s.disable);
  EXPECT_EQ(s.method, Method::OneShot);
  EXPECT_EQ(s.log, LogLevel::Debug);
  EXPECT_EQ(s.poolBytes, uint64_t(256) << 20);
  EXPECT_EQ(s.cacheDir, "/x/y");
  EXPECT_TRUE(s.noTypeCache);
  EXPECT_TRUE(w.empty());
  for (auto [text, m] : std::vector<std::pair<const char *, Method>>{
           {"auto", Method::Auto}, {"staged", Method::Staged}, {"device", Method::Device},
           {"ipc", Method::Ipc}})
    EXPECT_EQ(parse({{"TEMPI_METHOD", text}}).method, m) << text;
}

TEST(Env, ByteSuffixes) {
  EXPECT_EQ(parse({{"TEMPI_POOL_BYTES", "4096"}}).poolBytes, 4096u);
  EXPECT_EQ(parse({{"TEMPI_POOL_BYTES", "2k"}}).poolBytes, 2048u);
  EXPECT_EQ(parse({{"TEMPI_POOL_BYTES", "3GiB"}}).poolBytes, uint64_t(3) << 30);
  EXPECT_EQ(parse({{"TEMPI_POOL_BYTES", "1MB"}}).poolBytes, uint64_t(1) << 20);
  EXPECT_EQ(parse({{"TEMPI_IPC_MIN_BYTES", "4K"}}).ipcMinBytes, 4096u);
  EXPECT_EQ(parse({{"TEMPI_IPC_MIN_BYTES", "AUTO"}}).ipcMinBytes, kIpcMinBytesAuto);
  EXPECT_EQ(parse({}).ipcMinBytes, kIpcMinBytesAuto);
  std::vector<std::string> w;
  EXPECT_EQ(parse({{"TEMPI_IPC_MIN_BYTES", "lots"}}, &w).ipcMinBytes, kIpcMinBytesAuto);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("TEMPI_IPC_MIN_BYTES=lots"), std::string::npos) << w[0];
}

TEST(Env, BadValuesWarnAndKeepDefaults) {
  std::vector<std::string> w;
  Settings s = parse({{"TEMPI_DISABLE", "maybe"}, {"TEMPI_METHOD", "fast"}, {"TEMPI_LOG", "loud"},
                      {"TEMPI_POOL_BYTES", "-5"}},
                     &w);
  EXPECT_FALSE(s.disable);
  EXPECT_EQ(s.method, Method::Auto);
  EXPECT_EQ(s.log, LogLevel::Warn);
  EXPECT_EQ(s.poolBytes, uint64_t(1) << 30);
  ASSERT_EQ(w.size(), 4u);
  EXPECT_NE(w[0].find("TEMPI_DISABLE=maybe"), std::string::npos) << w[0];
  EXPECT_NE(w[1].find("TEMPI_METHOD=fast"), std::string::npos) << w[1];
  EXPECT_NE(w[2].find("TEMPI_LOG=loud"), std::string::npos) << w[2];
  EXPECT_NE(w[3].find("TEMPI_POOL_BYTES=-5"), std::string::npos) << w[3];
  std::vector<std::string> w2;
  parse({{"TEMPI_POOL_BYTES", "12Q"}}, &w2);
  EXPECT_EQ(w2.size(), 1u);
  std::vector<std::string> w3;
  parse({{"TEMPI_POOL_BYTES", "99999999999999999999999"}}, &w3);
  EXPECT_EQ(w3.size(), 1u);
}

TEST(Env, PackGraphs) {
  EXPECT_TRUE(parse({}).packGraphs);
  EXPECT_FALSE(parse({{"TEMPI_PACK_GRAPHS", "0"}}).packGraphs);
  std::vector<std::string> w;
  EXPECT_TRUE(parse({{"TEMPI_PACK_GRAPHS", "sometimes"}}, &w).packGraphs);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("TEMPI_PACK_GRAPHS=sometimes"), std::string::npos) << w[0];
}

TEST(Env, VerifyPlans) {
  EXPECT_FALSE(parse({}).verifyPlans);
  EXPECT_TRUE(parse({{"TEMPI_VERIFY_PLANS", "1"}}).verifyPlans);
  EXPECT_FALSE(parse({{"TEMPI_VERIFY_PLANS", "0"}}).verifyPlans);
  std::vector<std::string> w;
  EXPECT_FALSE(parse({{"TEMPI_VERIFY_PLANS", "strict"}}, &w).verifyPlans);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("TEMPI_VERIFY_PLANS=strict"), std::string::npos) << w[0];
}

TEST(Env, GpuTimeSlicedIsAutoZeroOrOne) {
  EXPECT_EQ(parse({}).gpuTimeSliced, -1);
  EXPECT_EQ(parse({{"TEMPI_GPU_TIME_SLICED", "auto"}}).gpuTimeSliced, -1);
  EXPECT_EQ(parse({{"TEMPI_GPU_TIME_SLICED", ""}}).gpuTimeSliced, -1);
  EXPECT_EQ(parse({{"TEMPI_GPU_TIME_SLICED", "1"}}).gpuTimeSliced, 1);
  EXPECT_EQ(parse({{"TEMPI_GPU_TIME_SLICED", "off"}}).gpuTimeSliced, 0);
  std::vector<std::string> w;
  EXPECT_EQ(parse({{"TEMPI_GPU_TIME_SLICED", "2"}}, &w).gpuTimeSliced, -1);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("TEMPI_GPU_TIME_SLICED=2: expected auto, 0 or 1"), std::string::npos) << w[0];
}

TEST(Env, TableIsWellFormed) {
  std::set<std::string> names;
  for (const EnvVar &v : allEnvVars()) {
    EXPECT_EQ(std::string(v.name).rfind("TEMPI_", 0), 0u) << v.name;
    EXPECT_TRUE(names.insert(v.name).second) << "duplicate " << v.name;
    EXPECT_GT(strlen(v.doc), 10u) << v.name;
    EXPECT_GT(strlen(v.values), 0u) << v.name;
  }
  // The table's defaults are what parseSettings gives for an empty environment.
  std::map<std::string, std::string> env;
  for (const EnvVar &v : allEnvVars()) env[v.name] = v.defaultValue;
  std::vector<std::string> w;
  Settings fromDefaults = parse(env, &w), unset = parse({});
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(fromDefaults.disable, unset.disable);
  EXPECT_EQ(fromDefaults.method, unset.method);
  EXPECT_EQ(fromDefaults.log, unset.log);
  EXPECT_EQ(fromDefaults.poolBytes, unset.poolBytes);
  EXPECT_EQ(fromDefaults.ipcMinBytes, unset.ipcMinBytes);
  EXPECT_EQ(fromDefaults.cacheDir, unset.cacheDir);
  EXPECT_EQ(fromDefaults.noTypeCache, unset.noTypeCache);
  EXPECT_EQ(fromDefaults.verifyPlans, unset.verifyPlans);
}

// docs/environment.md has one table row per variable: | `TEMPI_X` | `default` | values | doc |
TEST(Env, DocsListExactlyTheTable) {
  std::ifstream f(std::string(TEMPI_SOURCE_DIR) + "/docs/environment.md");
  ASSERT_TRUE(f) << "docs/environment.md is missing";
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string doc = ss.str();
  std::regex row(R"(\|\s*`(TEMPI_[A-Z_]+)`\s*\|\s*`([^`]*)`\s*\|)");
  std::map<std::string, std::string> documented;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator();
       ++it)
    documented[(*it)[1]] = (*it)[2];
  std::map<std::string, std::string> table;
  for (const EnvVar &v : allEnvVars()) table[v.name] = v.defaultValue;
  EXPECT_EQ(documented, table);
}
