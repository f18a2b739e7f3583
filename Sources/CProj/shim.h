// PROJ's geodesic API (Karney 2013), Debian package libproj-dev: its types only. The library is not
// linked; GeoCore loads it on the first geodesic (dlopen), since linking it loads 40 more shared
// libraries into every run.
#include <geodesic.h>
