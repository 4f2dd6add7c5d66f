/// \file
/// Result<T>: a value or an error message. passes/ is linked into the Clang tool, which is built
/// without exceptions, so nothing in passes/ throws: every fallible function returns a Result.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace tempi {

template <typename T> class Result {
public:
  static Result ok(T value) { return Result(std::move(value), {}); }
  static Result fail(std::string message) { return Result(std::nullopt, std::move(message)); }

  explicit operator bool() const { return value_.has_value(); }
  const T &operator*() const { assert(value_); return *value_; }
  T &operator*() { assert(value_); return *value_; }
  const T *operator->() const { assert(value_); return &*value_; }
  /// The error message; empty on success.
  const std::string &error() const { return error_; }

private:
  Result(std::optional<T> v, std::string e) : value_(std::move(v)), error_(std::move(e)) {}
  std::optional<T> value_;
  std::string error_;
};

} // namespace tempi
