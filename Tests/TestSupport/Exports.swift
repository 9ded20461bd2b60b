// The doubles and fixtures every test target shares are the ones embedding programs get from
// the RiderKitTesting library; this target adds what only RiderKit's own tests need.
@_exported import RiderKitTesting
