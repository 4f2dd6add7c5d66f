/// \file
/// HandleMap: a hash map from 64-bit handle keys (Handles.h) to values, with open addressing
/// (linear probing, backward-shift deletion) in one array. The request table (Requests.cpp) adds
/// and removes an entry for every device-buffer request; std::unordered_map allocated and freed
/// a node each time, which a burst of 416 requests per halo exchange paid for. Not thread-safe:
/// the caller holds its lock. Any key, 0 included, may be stored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tempi {

template <class V> class HandleMap {
public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  /// The value of `key`, or null.
  V *find(uint64_t key) {
    if (slots_.empty()) return nullptr;
    for (size_t i = home(key);; i = next(i)) {
      Slot &s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }

  /// The value of `key`, default-constructed if it was absent; second: whether it was absent.
  /// The pointer is valid until the next tryEmplace or erase.
  std::pair<V *, bool> tryEmplace(uint64_t key) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = home(key);
    for (; slots_[i].used; i = next(i))
      if (slots_[i].key == key) return {&slots_[i].value, false};
    slots_[i].used = true;
    slots_[i].key = key;
    ++size_;
    return {&slots_[i].value, true};
  }

  /// Removes `key` (its value is moved to *out when given); false when it was absent.
  bool erase(uint64_t key, V *out = nullptr) {
    if (slots_.empty()) return false;
    size_t i = home(key);
    for (; slots_[i].used; i = next(i))
      if (slots_[i].key == key) break;
    if (!slots_[i].used) return false;
    if (out) *out = std::move(slots_[i].value);
    // Backward shift: later entries of the probe run move into the hole when their home lies
    // at or before it (cyclically), so find() never stops early at an empty slot.
    size_t hole = i;
    for (size_t j = next(i); slots_[j].used; j = next(j)) {
      const size_t h = home(slots_[j].key);
      const bool movable = hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
      if (!movable) continue;
      slots_[hole].key = slots_[j].key;
      slots_[hole].value = std::move(slots_[j].value);
      hole = j;
    }
    slots_[hole].used = false;
    slots_[hole].value = V{};
    --size_;
    return true;
  }

  /// Calls f(key, value&) for every entry.
  template <class F> void forEach(F &&f) {
    for (Slot &s : slots_)
      if (s.used) f(s.key, s.value);
  }

  void swap(HandleMap &other) {
    slots_.swap(other.slots_);
    std::swap(size_, other.size_);
    std::swap(shift_, other.shift_);
  }

private:
  struct Slot {
    uint64_t key = 0;
    bool used = false;
    V value{};
  };

  size_t home(uint64_t key) const {
    return size_t((key * 0x9E3779B97F4A7C15ull) >> shift_); // Fibonacci hashing
  }
  size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    const size_t capacity = old.empty() ? 64 : old.size() * 2;
    slots_.resize(capacity);
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (Slot &s : old)
      if (s.used) *tryEmplace(s.key).first = std::move(s.value);
  }

  std::vector<Slot> slots_; ///< a power of two in size, at most half full
  size_t size_ = 0;
  int shift_ = 64;
};

} // namespace tempi
