// A timeline of the streaming engine (engine.cpp, DevicePipe), for diagnosis on
// machines without Nsight Systems. Compiled in only with -DSGPU_PIPE_TRACE (e.g. through
// bench/device_ab.sh's B_DEFS); otherwise every member is an empty inline function. Each device
// share prints, when it ends, one line per piece to stderr: its lane, when the host began to
// enqueue it and how long it waited for the lane (host ms from the share's start), and the device
// times (ms from the share's first event) at which the piece's input copy ended, its kernels ended
// and its output copy ended; and how late the share's host thread started after the call began.
// (No event before the input copy: an event recorded behind the lane's previous output copy fired
// only when other lanes' output copies had drained, delaying the piece.) bench/pipe_trace.py
// summarizes the lines.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#ifdef SGPU_PIPE_TRACE
#include <chrono>
#include <cstdio>
#include <mutex>
#include <vector>
#endif

namespace sgpu {
namespace gpu {
namespace pipe_trace {

#ifdef SGPU_PIPE_TRACE
inline double host_ms() {
  static const auto t0 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
inline double& call_start() {
  static double t = 0;
  return t;
}
// A streamed call begins (before its shares' threads start).
inline void call_begin() { call_start() = host_ms(); }

class Share {
 public:
  enum Mark { kCopiedIn, kComputed, kCopiedOut, kMarks };
  // s: a stream of the share's device, idle but for what precedes the share's pieces.
  explicit Share(cudaStream_t s) : host0_(host_ms()) {
    cudaGetDevice(&device_);
    if (cudaEventCreate(&e0_) == cudaSuccess) cudaEventRecord(e0_, s);
    ready_ = host_ms() - host0_;
  }
  ~Share() {
    static std::mutex print;
    static int calls = 0;
    std::lock_guard<std::mutex> lock(print);
    if (e0_) cudaEventSynchronize(e0_);
    for (const Piece& p : pieces_) {
      float t[kMarks] = {-1, -1, -1};
      for (int m = 0; m < kMarks; ++m)
        if (e0_ && p.e[m] && cudaEventSynchronize(p.e[m]) == cudaSuccess) cudaEventElapsedTime(&t[m], e0_, p.e[m]);
      std::fprintf(stderr,
                   "trace call=%d dev=%d host0=%.3f late=%.3f ready=%.3f piece=%lld lane=%d enq=%.3f wait=%.3f in=%.3f "
                   "k=%.3f out=%.3f\n",
                   calls, device_, host0_, host0_ - call_start(), ready_, (long long)p.index, p.lane, p.enq - host0_,
                   p.wait, t[0], t[1], t[2]);
      for (cudaEvent_t e : p.e)
        if (e) cudaEventDestroy(e);
    }
    if (e0_) cudaEventDestroy(e0_);
    ++calls;
    (void)cudaGetLastError();
  }
  // The host waits for lane `lane` before reusing it (begin) and has done so (end).
  void wait_begin() { wait0_ = host_ms(); }
  void wait_end() { waited_ = host_ms() - wait0_; }
  // Piece `index` is being enqueued on `lane`.
  void piece(int64_t index, int lane) {
    pieces_.push_back(Piece{index, lane, host_ms(), waited_, {}});
    waited_ = 0;
  }
  void mark(Mark m, cudaStream_t s) {
    if (pieces_.empty()) return;
    cudaEvent_t& e = pieces_.back().e[m];
    if (cudaEventCreate(&e) != cudaSuccess || cudaEventRecord(e, s) != cudaSuccess) e = nullptr;
  }

 private:
  struct Piece {
    int64_t index;
    int lane;
    double enq, wait;
    cudaEvent_t e[kMarks];
  };
  int device_ = -1;
  double host0_, ready_ = 0, wait0_ = 0, waited_ = 0;
  cudaEvent_t e0_ = nullptr;
  std::vector<Piece> pieces_;
};
#else
inline void call_begin() {}
class Share {
 public:
  enum Mark { kCopiedIn, kComputed, kCopiedOut, kMarks };
  explicit Share(cudaStream_t) {}
  void wait_begin() {}
  void wait_end() {}
  void piece(int64_t, int) {}
  void mark(Mark, cudaStream_t) {}
};
#endif

}  // namespace pipe_trace
}  // namespace gpu
}  // namespace sgpu
