#include "ccurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// The libcurl functions termmap calls (everything.curl.dev: the easy interface).
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void load(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "libcurl is not installed (Debian: apt-get install libcurl4)");
        return;
    }
#define SYM(field, name)                                                                        \
    if (!(*(void **)&curl.field = dlsym(lib, name))) {                                          \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks %s", name);                \
        return;                                                                                 \
    }
    SYM(global_init, "curl_global_init")
    SYM(easy_init, "curl_easy_init")
    SYM(easy_setopt, "curl_easy_setopt")
    SYM(easy_perform, "curl_easy_perform")
    SYM(easy_getinfo, "curl_easy_getinfo")
    SYM(easy_cleanup, "curl_easy_cleanup")
    SYM(easy_reset, "curl_easy_reset")
    SYM(easy_strerror, "curl_easy_strerror")
    SYM(slist_append, "curl_slist_append")
    SYM(slist_free_all, "curl_slist_free_all")
#undef SYM
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl failed to start");
        return;
    }
    loaded = 1;
}

int termmap_http_load(char *why, size_t why_size) {
    pthread_once(&load_once, load);
    if (!loaded && why && why_size) snprintf(why, why_size, "%s", load_error);
    return loaded ? 0 : -1;
}

void *termmap_http_new(void) {
    if (termmap_http_load(NULL, 0) != 0) return NULL;
    return curl.easy_init();
}

void termmap_http_delete(void *handle) {
    if (handle && loaded) curl.easy_cleanup(handle);
}

typedef struct {
    termmap_http_response *out;
    size_t capacity;
    size_t max_bytes;
} sink;

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    sink *s = user;
    size_t n = size * count;
    if (s->out->length + n > s->max_bytes) {
        s->out->too_big = 1;
        return 0;  // aborts the transfer
    }
    if (s->out->length + n > s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 65536;
        while (cap < s->out->length + n) cap *= 2;
        unsigned char *grown = realloc(s->out->body, cap);
        if (!grown) return 0;
        s->out->body = grown;
        s->capacity = cap;
    }
    memcpy(s->out->body + s->out->length, data, n);
    s->out->length += n;
    return n;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    termmap_http_response *out = user;
    size_t n = size * count;
    if (n > 5 && strncasecmp(data, "etag:", 5) == 0) {
        size_t start = 5;
        while (start < n && (data[start] == ' ' || data[start] == '\t')) start++;
        size_t end = n;
        while (end > start && (data[end - 1] == '\r' || data[end - 1] == '\n' || data[end - 1] == ' ')) end--;
        size_t len = end - start < sizeof out->etag - 1 ? end - start : sizeof out->etag - 1;
        memcpy(out->etag, data + start, len);
        out->etag[len] = 0;
    } else if (n > 14 && strncasecmp(data, "content-range:", 14) == 0) {
        // `Content-Range: bytes 0-16383/123456` (RFC 9110 §14.4); `*` for an unknown size.
        const char *slash = memchr(data, '/', n);
        out->total_size = -1;
        if (slash && slash + 1 < data + n && slash[1] >= '0' && slash[1] <= '9') {
            long long v = 0;
            for (const char *p = slash + 1; p < data + n && *p >= '0' && *p <= '9' && v < (1LL << 56); p++)
                v = v * 10 + (*p - '0');
            out->total_size = v;
        }
    } else if (n >= 5 && strncmp(data, "HTTP/", 5) == 0) {
        out->etag[0] = 0;  // a new response (after a redirect): its own headers count
        out->total_size = -1;
    }
    return n;
}

int termmap_http_get(void *handle, const char *url, const char *range, const char *if_match, size_t max_bytes,
                     long timeout_ms, termmap_http_response *out) {
    memset(out, 0, sizeof *out);
    out->total_size = -1;
    if (!handle || !loaded) {
        snprintf(out->error, sizeof out->error, "%s", load_error[0] ? load_error : "libcurl is not loaded");
        return -1;
    }
    CURL *c = handle;
    curl.easy_reset(c);
    sink s = {out, 0, max_bytes};
    char errbuf[CURL_ERROR_SIZE] = {0};
    struct curl_slist *headers = NULL;
    if (if_match && if_match[0]) {
        char line[300];
        snprintf(line, sizeof line, "If-Match: %s", if_match);
        headers = curl.slist_append(headers, line);
    }
    curl.easy_setopt(c, CURLOPT_URL, url);
    curl.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl.easy_setopt(c, CURLOPT_USERAGENT, "termmap/0.1");
    curl.easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(c, CURLOPT_WRITEDATA, &s);
    curl.easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(c, CURLOPT_HEADERDATA, out);
    if (range) curl.easy_setopt(c, CURLOPT_RANGE, range);
    if (headers) curl.easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    CURLcode code = curl.easy_perform(c);
    curl.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out->status);
    if (headers) curl.slist_free_all(headers);
    if (code == CURLE_OK) return 0;
    if (out->too_big) return 0;
    out->timed_out = code == CURLE_OPERATION_TIMEDOUT;
    snprintf(out->error, sizeof out->error, "%s", errbuf[0] ? errbuf : curl.easy_strerror(code));
    return -1;
}

void termmap_http_free(termmap_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->length = 0;
}
