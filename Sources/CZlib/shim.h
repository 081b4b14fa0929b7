// The system zlib (deflate/inflate for HdrHistogram's compressed encoding in sweep files).
#include <zlib.h>
