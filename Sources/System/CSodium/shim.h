#ifndef COURIER_CSODIUM_SHIM_H
#define COURIER_CSODIUM_SHIM_H
#include <sodium.h>
#endif
