/// \file
/// A value of type T cached on a program's communicator: an attribute under a keyval of its
/// own, made at the first use, deleted (T's destructor) when the communicator is freed, and not
/// copied by MPI_Comm_dup. Safe to use from several threads. The value is made without the lock
/// held: making it may be collective (a neighbour collective's private communicator), and two
/// threads making the first values of two communicators must not wait on each other.
#pragma once

#include <mpi.h>

#include <memory>
#include <mutex>

namespace tempi {

template <class T> class CommCache {
public:
  /// comm's value into *out, made by `make(T &)` (returning an MPI error code) at the first call.
  /// An error of the MPI or of `make` is returned, and nothing is cached then. When two threads
  /// make comm's first value at once, the first one cached is kept (the other is deleted).
  template <class Make> int get(MPI_Comm comm, T **out, Make make) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (key_ == MPI_KEYVAL_INVALID)
        if (int rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, destroy, &key_, nullptr);
            rc != MPI_SUCCESS)
          return rc;
      int found = 0;
      if (int rc = PMPI_Comm_get_attr(comm, key_, out, &found); rc != MPI_SUCCESS || found)
        return rc;
    }
    auto fresh = std::make_unique<T>();
    if (int rc = make(*fresh); rc != MPI_SUCCESS) return rc;
    std::lock_guard<std::mutex> lock(mutex_);
    int found = 0;
    if (int rc = PMPI_Comm_get_attr(comm, key_, out, &found); rc != MPI_SUCCESS || found)
      return rc;
    if (int rc = PMPI_Comm_set_attr(comm, key_, fresh.get()); rc != MPI_SUCCESS) return rc;
    *out = fresh.release();
    return MPI_SUCCESS;
  }

  /// comm's value, or nullptr when none has been made.
  T *find(MPI_Comm comm) {
    std::lock_guard<std::mutex> lock(mutex_);
    T *value = nullptr;
    int found = 0;
    if (key_ == MPI_KEYVAL_INVALID || PMPI_Comm_get_attr(comm, key_, &value, &found) != MPI_SUCCESS)
      return nullptr;
    return found ? value : nullptr;
  }

private:
  static int destroy(MPI_Comm, int, void *value, void *) {
    delete static_cast<T *>(value);
    return MPI_SUCCESS;
  }
  std::mutex mutex_;
  int key_ = MPI_KEYVAL_INVALID;
};

} // namespace tempi
