// zlib (inflate for OpenStreetMap PBF blobs and gzip tiles), Debian package zlib1g-dev.
#include <zlib.h>
