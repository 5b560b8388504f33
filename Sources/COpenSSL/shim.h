#ifndef COURIER_COPENSSL_SHIM_H
#define COURIER_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/crypto.h>
#endif
