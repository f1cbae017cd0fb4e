// Version string and the description of every return value.
#include "sgpu.h"

#define SGPU_STR2(x) #x
#define SGPU_STR(x) SGPU_STR2(x)

extern "C" {

const char* sgpu_version(void) {
  return SGPU_STR(SGPU_VERSION_MAJOR) "." SGPU_STR(SGPU_VERSION_MINOR) "." SGPU_STR(SGPU_VERSION_PATCH);
}

const char* sgpu_strerror(int status) {
  if (status == SGPU_SUCCESS) return "success";
  if (status > 0) return "some matrices did not converge or held NaN/Inf (see info[])";
  switch (status) {
    case SGPU_ERR_HOST_ALLOC: return "host memory allocation failed";
    case SGPU_ERR_DEVICE_ALLOC: return "device memory allocation failed";
    case SGPU_ERR_DEVICE: return "a CUDA call or kernel launch failed";
    case SGPU_ERR_NO_BACKEND: return "the requested backend is not available on this machine";
    case SGPU_ERR_NOT_SUPPORTED: return "this backend does not support this routine or memory kind yet";
    case SGPU_ERR_INVALID_CONTEXT: return "invalid context or context setting";
    default: break;
  }
  if (status < 0 && status >= -64) return "illegal argument (the status is minus its position)";
  return "unknown status";
}

}  // extern "C"
