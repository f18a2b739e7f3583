// Expat (GPX and KML), Debian package libexpat1-dev.
#include <expat.h>
