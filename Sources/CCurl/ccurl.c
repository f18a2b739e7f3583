#include "ccurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

// The libcurl functions termmap calls (everything.curl.dev: the easy and multi interfaces).
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_cleanup)(CURLM *);
    time_t (*getdate)(const char *, const time_t *);
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
        snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks %s (7.66 or newer is needed)", name); \
        return;                                                                                 \
    }
    SYM(global_init, "curl_global_init")
    SYM(easy_init, "curl_easy_init")
    SYM(easy_setopt, "curl_easy_setopt")
    SYM(easy_getinfo, "curl_easy_getinfo")
    SYM(easy_cleanup, "curl_easy_cleanup")
    SYM(easy_strerror, "curl_easy_strerror")
    SYM(slist_append, "curl_slist_append")
    SYM(slist_free_all, "curl_slist_free_all")
    SYM(multi_init, "curl_multi_init")
    SYM(multi_setopt, "curl_multi_setopt")
    SYM(multi_add_handle, "curl_multi_add_handle")
    SYM(multi_remove_handle, "curl_multi_remove_handle")
    SYM(multi_perform, "curl_multi_perform")
    SYM(multi_poll, "curl_multi_poll")
    SYM(multi_info_read, "curl_multi_info_read")
    SYM(multi_cleanup, "curl_multi_cleanup")
    SYM(getdate, "curl_getdate")
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

void *termmap_http_pool_new(void) {
    if (termmap_http_load(NULL, 0) != 0) return NULL;
    return curl.multi_init();
}

void termmap_http_pool_delete(void *pool) {
    if (pool && loaded) curl.multi_cleanup(pool);
}

long long termmap_http_date(const char *text) {
    if (!loaded || !text || !text[0]) return -1;
    time_t t = curl.getdate(text, NULL);
    return t == (time_t)-1 ? -1 : (long long)t;
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

// Copies a header's value (after `name:`, without surrounding blanks) into `into`.
static int header_value(const char *data, size_t n, const char *name, char *into, size_t size) {
    size_t k = strlen(name);
    if (n <= k || strncasecmp(data, name, k) != 0 || data[k] != ':') return 0;
    size_t start = k + 1;
    while (start < n && (data[start] == ' ' || data[start] == '\t')) start++;
    size_t end = n;
    while (end > start && (data[end - 1] == '\r' || data[end - 1] == '\n' || data[end - 1] == ' ')) end--;
    size_t len = end - start < size - 1 ? end - start : size - 1;
    memcpy(into, data + start, len);
    into[len] = 0;
    return 1;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    termmap_http_response *out = user;
    size_t n = size * count;
    char value[256];
    if (n >= 5 && strncmp(data, "HTTP/", 5) == 0) {
        // A new response (after a redirect or a 100): its own headers count.
        out->etag[0] = out->last_modified[0] = out->cache_control[0] = 0;
        out->total_size = out->expires = out->date = out->retry_after = -1;
    } else if (header_value(data, n, "etag", out->etag, sizeof out->etag)) {
    } else if (header_value(data, n, "last-modified", out->last_modified, sizeof out->last_modified)) {
    } else if (header_value(data, n, "cache-control", out->cache_control, sizeof out->cache_control)) {
    } else if (header_value(data, n, "expires", value, sizeof value)) {
        out->expires = termmap_http_date(value);
    } else if (header_value(data, n, "date", value, sizeof value)) {
        out->date = termmap_http_date(value);
    } else if (header_value(data, n, "retry-after", value, sizeof value)) {
        // RFC 9110 §10.2.3: delay-seconds or an HTTP date.
        if (value[0] >= '0' && value[0] <= '9') {
            long long v = 0;
            for (const char *p = value; *p >= '0' && *p <= '9' && v < 1000000000LL; p++) v = v * 10 + (*p - '0');
            out->retry_after = v;
        } else {
            long long at = termmap_http_date(value);
            if (at >= 0) out->retry_after = at > (long long)time(NULL) ? at - (long long)time(NULL) : 0;
        }
    } else if (header_value(data, n, "content-range", value, sizeof value)) {
        // `Content-Range: bytes 0-16383/123456` (RFC 9110 §14.4); `*` for an unknown size.
        const char *slash = strchr(value, '/');
        if (slash && slash[1] >= '0' && slash[1] <= '9') {
            long long v = 0;
            for (const char *p = slash + 1; *p >= '0' && *p <= '9' && v < (1LL << 56); p++) v = v * 10 + (*p - '0');
            out->total_size = v;
        }
    }
    return n;
}

typedef struct {
    CURL *easy;
    struct curl_slist *headers;
    sink body;
    char errbuf[CURL_ERROR_SIZE];
    int index;
} transfer;

static void add_header(struct curl_slist **list, const char *name, const char *value) {
    if (!value || !value[0]) return;
    char line[400];
    snprintf(line, sizeof line, "%s: %s", name, value);
    *list = curl.slist_append(*list, line);
}

static int start(CURLM *multi, transfer *t, const termmap_http_request *r, termmap_http_response *out,
                 long timeout_ms, const char *user_agent) {
    t->easy = curl.easy_init();
    if (!t->easy) {
        snprintf(out->error, sizeof out->error, "libcurl could not start a request");
        return -1;
    }
    CURL *c = t->easy;
    t->headers = NULL;
    t->errbuf[0] = 0;
    t->body = (sink){out, 0, r->max_bytes};
    add_header(&t->headers, "If-Match", r->if_match);
    add_header(&t->headers, "If-None-Match", r->if_none_match);
    add_header(&t->headers, "If-Modified-Since", r->if_modified_since);
    curl.easy_setopt(c, CURLOPT_URL, r->url);
    // Only http and https, and a redirect never from https to http (nor to any other scheme).
    int https = strncasecmp(r->url, "https:", 6) == 0;
    curl.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, https ? "https" : "http,https");
    curl.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl.easy_setopt(c, CURLOPT_USERAGENT, user_agent);
    curl.easy_setopt(c, CURLOPT_ERRORBUFFER, t->errbuf);
    curl.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(c, CURLOPT_WRITEDATA, &t->body);
    curl.easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(c, CURLOPT_HEADERDATA, out);
    // Wait for a connection (or an HTTP/2 stream on one) rather than open another.
    curl.easy_setopt(c, CURLOPT_PIPEWAIT, 1L);
    curl.easy_setopt(c, CURLOPT_PRIVATE, t);
    if (r->range) curl.easy_setopt(c, CURLOPT_RANGE, r->range);
    if (t->headers) curl.easy_setopt(c, CURLOPT_HTTPHEADER, t->headers);
    if (curl.multi_add_handle(multi, c) != CURLM_OK) {
        snprintf(out->error, sizeof out->error, "libcurl could not queue a request");
        curl.easy_cleanup(c);
        if (t->headers) curl.slist_free_all(t->headers);
        t->easy = NULL;
        return -1;
    }
    return 0;
}

static void finish(CURLM *multi, transfer *t, CURLcode code, termmap_http_response *out) {
    curl.easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &out->status);
    if (code != CURLE_OK && !out->too_big) {
        out->timed_out = code == CURLE_OPERATION_TIMEDOUT;
        snprintf(out->error, sizeof out->error, "%s", t->errbuf[0] ? t->errbuf : curl.easy_strerror(code));
        if (!out->status) out->status = 0;
    }
    curl.multi_remove_handle(multi, t->easy);
    curl.easy_cleanup(t->easy);
    if (t->headers) curl.slist_free_all(t->headers);
    t->easy = NULL;
}

void termmap_http_run(void *pool, const termmap_http_request *requests, termmap_http_response *responses,
                      int count, int parallel, long timeout_ms, const char *user_agent,
                      int (*wanted)(void *context, int index), void *context) {
    for (int i = 0; i < count; i++) {
        memset(&responses[i], 0, sizeof responses[i]);
        responses[i].total_size = responses[i].expires = responses[i].date = responses[i].retry_after = -1;
    }
    if (!pool || !loaded) {
        for (int i = 0; i < count; i++)
            snprintf(responses[i].error, sizeof responses[i].error, "%s",
                     load_error[0] ? load_error : "libcurl is not loaded");
        return;
    }
    if (parallel < 1) parallel = 1;
    CURLM *multi = pool;
    transfer *slots = calloc((size_t)parallel, sizeof *slots);
    if (!slots) {
        for (int i = 0; i < count; i++) snprintf(responses[i].error, sizeof responses[i].error, "out of memory");
        return;
    }
    int next = 0, running = 0;
    for (;;) {
        // Fill free slots with the next requests still wanted.
        for (int s = 0; s < parallel && next < count; s++) {
            if (slots[s].easy) continue;
            while (next < count && wanted && !wanted(context, next)) responses[next++].status = -1;
            if (next >= count) break;
            slots[s].index = next;
            if (start(multi, &slots[s], &requests[next], &responses[next], timeout_ms, user_agent) == 0) running++;
            next++;
        }
        if (running == 0 && next >= count) break;
        int still = 0;
        curl.multi_perform(multi, &still);
        CURLMsg *m;
        int left;
        while ((m = curl.multi_info_read(multi, &left))) {
            if (m->msg != CURLMSG_DONE) continue;
            transfer *t = NULL;
            curl.easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&t);
            if (!t) continue;
            finish(multi, t, m->data.result, &responses[t->index]);
            running--;
        }
        if (running > 0) curl.multi_poll(multi, NULL, 0, 100, NULL);
    }
    free(slots);
}

void termmap_http_free(termmap_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->length = 0;
}
