/* \file
 * The C ABI of an ictk adapter (`lib:PATH.so`), shaped like Arrow's C Data Interface: one
 * exported symbol fills a struct of function pointers; nothing C++ crosses it, and no
 * exception may escape it. Messages are the protocol's JSON objects, one per call, as
 * NUL-terminated UTF-8 strings (docs/protocol.md).
 *
 *   IctkAdapter a;
 *   if (ictk_adapter_init(&a) != 0 || a.abi_version != ICTK_ADAPTER_ABI_VERSION) fail;
 *   char* response = NULL;
 *   if (a.call(&a, "{\"id\":1,\"op\":\"hello\",\"protocol-version\":1}", &response) != 0)
 *     fail with a.last_error(&a);
 *   ... use response ...; a.free_string(&a, response);
 *   a.release(&a);
 */
#ifndef ICTK_ADAPTER_H_
#define ICTK_ADAPTER_H_

#ifdef __cplusplus
extern "C" {
#endif

#define ICTK_ADAPTER_ABI_VERSION 1

typedef struct IctkAdapter {
  /* Set by ictk_adapter_init to ICTK_ADAPTER_ABI_VERSION; the harness refuses others. */
  int abi_version;
  /* Handles one request (a JSON object text). On success returns 0 and sets *response to a
   * string the harness frees with free_string. On failure returns non-zero; last_error
   * then describes it. A protocol-level rejection is a success (a response object). */
  int (*call)(struct IctkAdapter* self, const char* request_json, char** response_json);
  /* Frees a string returned through call. */
  void (*free_string)(struct IctkAdapter* self, char* str);
  /* The last failure of call, owned by the adapter (valid until the next call), or NULL. */
  const char* (*last_error)(struct IctkAdapter* self);
  /* Releases the adapter; afterwards release is set to NULL. */
  void (*release)(struct IctkAdapter* self);
  /* Owned by the adapter. */
  void* private_data;
} IctkAdapter;

/* The one exported symbol. Returns 0 on success. */
int ictk_adapter_init(IctkAdapter* out);

#ifdef __cplusplus
}
#endif

#endif /* ICTK_ADAPTER_H_ */
