// libsecret's Secret Service client; RiderKit calls only its non-variadic (…v) functions.
#include <libsecret/secret.h>
