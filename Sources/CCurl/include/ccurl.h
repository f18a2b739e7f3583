#ifndef TERMMAP_CCURL_H
#define TERMMAP_CCURL_H
// HTTP(S) GET requests through libcurl, loaded with dlopen on first use: termmap links no network
// library, so that a run without a URL costs nothing and opens no socket.
#include <stddef.h>

typedef struct termmap_http_response {
    long status;            // HTTP status (0 when no answer came)
    unsigned char *body;    // malloc'ed; free with termmap_http_free
    size_t length;
    char etag[256];         // the ETag header, "" when none
    char error[512];        // why the request failed, "" when it did not
    int timed_out;          // 1 when the time limit passed
    int too_big;            // 1 when the body passed max_bytes (a server ignoring Range)
    long long total_size;   // the file's size from `Content-Range: bytes a-b/SIZE`, -1 when not said
} termmap_http_response;

// Loads libcurl.so.4 once; 0 on success, else -1 with the reason in `why`.
int termmap_http_load(char *why, size_t why_size);

// A connection reused between requests (keep-alive); NULL when libcurl is not loaded.
void *termmap_http_new(void);
void termmap_http_delete(void *handle);

// GET `url` with an optional Range (`bytes=a-b`) and If-Match header, at most `max_bytes` of body,
// within `timeout_ms`. Returns 0 when an HTTP answer came (see status), -1 otherwise (see error).
int termmap_http_get(void *handle, const char *url, const char *range, const char *if_match, size_t max_bytes,
                     long timeout_ms, termmap_http_response *out);
void termmap_http_free(termmap_http_response *response);

#endif
