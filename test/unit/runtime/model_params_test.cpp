/// \file
/// The model cache file (ModelParams.h): round trip, defaults, every kind of bad input warned
/// about without failing, atomic writes into directories that do not exist yet.
#include "ModelParams.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace tempi;

namespace {
std::string tempDir() {
  char tmpl[] = "/tmp/tempi-model-XXXXXX";
  const char *d = mkdtemp(tmpl);
  return d ? d : "/tmp";
}
} // namespace

TEST(ModelParams, RoundTripKeepsEveryValue) {
  ModelParams p;
  double v = 1.25;
  for (const ModelParamKey &k : allModelParamKeys()) p.*(k.field) = (v *= 1.7);
  std::vector<std::string> w;
  ModelParams q = parseModelParams(formatModelParams(p), &w);
  EXPECT_TRUE(w.empty());
  EXPECT_TRUE(q.fromFile);
  for (const ModelParamKey &k : allModelParamKeys()) EXPECT_EQ(p.*(k.field), q.*(k.field)) << k.key;
}

TEST(ModelParams, RequiredKeysExist) {
  std::set<std::string> keys;
  for (const ModelParamKey &k : allModelParamKeys()) keys.insert(k.key);
  for (const char *k : {"d2h_gbps", "h2d_gbps", "pack_gbps", "launch_us", "mpi_latency_us",
                        "mpi_gbps", "ipc_gbps"})
    EXPECT_TRUE(keys.count(k)) << k;
}

TEST(ModelParams, MissingFileGivesDefaultsQuietly) {
  std::vector<std::string> w;
  ModelParams p = loadModelParams("/nonexistent/dir/model.txt", &w);
  EXPECT_TRUE(w.empty());
  EXPECT_FALSE(p.fromFile);
  EXPECT_EQ(p.d2hGbps, ModelParams{}.d2hGbps);
}

TEST(ModelParams, BadLinesWarnAndUseDefaults) {
  std::vector<std::string> w;
  ModelParams p = parseModelParams("# comment\n"
                                   "d2h_gbps 33.5\n"
                                   "h2d_gbps fast\n"
                                   "pack_gbps -3\n"
                                   "launch_us 0\n"
                                   "mpi_gbps 2 3\n"
                                   "bogus_key 1\n"
                                   "d2h_gbps 99\n"
                                   "ipc_gbps\n"
                                   "mpi_latency_us inf\n",
                                   &w);
  EXPECT_EQ(p.d2hGbps, 33.5);                      // first value kept
  EXPECT_EQ(p.h2dGbps, ModelParams{}.h2dGbps);     // not a number
  EXPECT_EQ(p.packGbps, ModelParams{}.packGbps);   // negative
  EXPECT_EQ(p.launchUs, ModelParams{}.launchUs);   // zero
  EXPECT_EQ(p.mpiGbps, ModelParams{}.mpiGbps);     // extra text
  EXPECT_EQ(p.mpiLatencyUs, ModelParams{}.mpiLatencyUs);
  EXPECT_FALSE(p.fromFile);
  auto has = [&](const std::string &s) {
    for (const std::string &x : w)
      if (x.find(s) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("line 3: 'h2d_gbps': 'fast'"));
  EXPECT_TRUE(has("line 4"));
  EXPECT_TRUE(has("line 5"));
  EXPECT_TRUE(has("line 6"));
  EXPECT_TRUE(has("unknown key 'bogus_key'"));
  EXPECT_TRUE(has("duplicate key 'd2h_gbps'"));
  EXPECT_TRUE(has("'ipc_gbps' has no value"));
  EXPECT_TRUE(has("missing key"));
}

TEST(ModelParams, BinaryGarbageNeverFails) {
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk.push_back(char((i * 7919) & 0xff));
  std::vector<std::string> w;
  ModelParams p = parseModelParams(junk, &w);
  EXPECT_FALSE(p.fromFile);
  EXPECT_GT(p.d2hGbps, 0);
}

TEST(ModelParams, WriteCreatesDirectoriesAndReadsBack) {
  std::string dir = tempDir() + "/a/b";
  std::string path = dir + "/model.txt";
  ModelParams p;
  p.ipcGbps = 372.5;
  std::string error;
  ASSERT_TRUE(writeModelParams(p, path, &error)) << error;
  std::vector<std::string> w;
  ModelParams q = loadModelParams(path, &w);
  EXPECT_TRUE(w.empty());
  EXPECT_TRUE(q.fromFile);
  EXPECT_EQ(q.ipcGbps, 372.5);
  EXPECT_NE(access((path + ".tmp." + std::to_string(getpid())).c_str(), F_OK), 0);
}

TEST(ModelParams, WriteFailureIsReported) {
  std::string error;
  EXPECT_FALSE(writeModelParams(ModelParams{}, "/proc/tempi-cannot/model.txt", &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(writeModelParams(ModelParams{}, "", &error));
  EXPECT_NE(error.find("no path"), std::string::npos);
}

TEST(ModelParams, DefaultPathFollowsCacheDirThenHome) {
  const char *oldCache = getenv("TEMPI_CACHE_DIR");
  const char *oldHome = getenv("HOME");
  std::string savedCache = oldCache ? oldCache : "", savedHome = oldHome ? oldHome : "";
  setenv("TEMPI_CACHE_DIR", "/c", 1);
  EXPECT_EQ(defaultModelPath(), "/c/model.txt");
  unsetenv("TEMPI_CACHE_DIR");
  setenv("HOME", "/h", 1);
  EXPECT_EQ(defaultModelPath(), "/h/.cache/tempi/model.txt");
  unsetenv("HOME");
  EXPECT_EQ(defaultModelPath(), "");
  if (oldCache) setenv("TEMPI_CACHE_DIR", savedCache.c_str(), 1);
  if (oldHome) setenv("HOME", savedHome.c_str(), 1);
}
