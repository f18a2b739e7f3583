#ifndef TERMMAP_CCURL_H
#define TERMMAP_CCURL_H
// HTTP(S) GET requests through libcurl, loaded with dlopen on first use: termmap links no network
// library, so that a run without a URL costs nothing and opens no socket. Requests go through
// libcurl's multi interface, a few at a time over connections it keeps alive (HTTP/1.1) or streams
// on one connection (HTTP/2).
#include <stddef.h>

typedef struct termmap_http_request {
    const char *url;
    const char *range;              // `a-b` (bytes), or NULL
    const char *if_match;           // an ETag, or NULL
    const char *if_none_match;      // an ETag (revalidation), or NULL
    const char *if_modified_since;  // an HTTP date (revalidation), or NULL
    size_t max_bytes;               // most bytes of body kept; more aborts the transfer (too_big)
} termmap_http_request;

typedef struct termmap_http_response {
    long status;             // HTTP status (0 when no answer came, -1 when the request was dropped)
    unsigned char *body;     // malloc'ed; free with termmap_http_free
    size_t length;
    char etag[256];          // the ETag header, "" when none
    char last_modified[64];  // the Last-Modified header, "" when none
    char cache_control[256]; // the Cache-Control header, "" when none
    long long expires;       // the Expires header as Unix seconds, -1 when none or unreadable
    long long date;          // the Date header as Unix seconds, -1 when none
    long long retry_after;   // Retry-After in seconds from now (a number or a date), -1 when none
    char error[512];         // why the request failed, "" when it did not
    int timed_out;           // 1 when the time limit passed
    int too_big;             // 1 when the body passed max_bytes (a server ignoring Range)
    long long total_size;    // the file's size from `Content-Range: bytes a-b/SIZE`, -1 when not said
} termmap_http_response;

// Loads libcurl.so.4 once; 0 on success, else -1 with the reason in `why`.
int termmap_http_load(char *why, size_t why_size);

// A set of kept-alive connections (a libcurl multi handle); NULL when libcurl is not loaded.
void *termmap_http_pool_new(void);
void termmap_http_pool_delete(void *pool);

// Runs `count` requests over `pool`, at most `parallel` in flight, each within `timeout_ms`. Before a
// queued request starts, `wanted(context, index)` is asked (when not NULL): 0 drops it (status -1).
// Returns when all have ended; each response says how it went.
void termmap_http_run(void *pool, const termmap_http_request *requests, termmap_http_response *responses,
                      int count, int parallel, long timeout_ms, const char *user_agent,
                      int (*wanted)(void *context, int index), void *context);
void termmap_http_free(termmap_http_response *response);

// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`) as Unix seconds, -1 when unreadable.
long long termmap_http_date(const char *text);

#endif
