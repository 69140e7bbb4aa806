#ifndef KEYSIM_CZSTD_SHIM_H
#define KEYSIM_CZSTD_SHIM_H
#include <zstd.h>
#endif
