// The public surface of `import RiderKit`, declared here and nowhere else.
//
// An embedding program imports RiderKit and nothing else. It gets the whole Domain layer (models,
// errors and ports: each is something an embedder reads, throws, or implements in an adapter)
// and, from the inner layers, exactly the declarations listed below: the session engine's public
// view, configuration, the use cases the facade hands out, and the stock adapters a program may
// choose. Anything else that Application or Infrastructure declares is `package`: the CLI, the
// test support and the tests are in this package and keep using it; no embedder depends on it.
//
// `scripts/check-api.sh` (part of `make test`) fails when a public declaration of Application or
// Infrastructure is missing here (public but unreachable is a promise nobody can use), and when the
// public API as a whole differs from the baseline in api/public-api.txt.
// (Scoped imports name actors as `class`.)

@_exported import RiderDomain

// MARK: Application — configuration and the session

@_exported import struct RiderApplication.APIConfiguration
@_exported import struct RiderApplication.CacheSettings
@_exported import struct RiderApplication.RequestIdentity
@_exported import struct RiderApplication.Reauthentication
@_exported import struct RiderApplication.SignInFlow
@_exported import class RiderApplication.SessionEngine
@_exported import class RiderApplication.ProviderDiscovery
@_exported import struct RiderApplication.Accounts

// MARK: Application — the use cases the facade hands out (UploadAvatar for its Configuration)

@_exported import struct RiderApplication.Login
@_exported import struct RiderApplication.SignInWithDeviceCode
@_exported import struct RiderApplication.Logout
@_exported import struct RiderApplication.Register
@_exported import struct RiderApplication.MigrateSession
@_exported import struct RiderApplication.SignInWithBrowser
@_exported import struct RiderApplication.CurrentUser
@_exported import struct RiderApplication.GetUser
@_exported import struct RiderApplication.SearchUsers
@_exported import struct RiderApplication.ListUsers
@_exported import struct RiderApplication.UserPages
@_exported import struct RiderApplication.UploadAvatar
@_exported import struct RiderApplication.DeleteAccount

// MARK: Infrastructure — the stock adapters

@_exported import class RiderInfrastructure.AsyncHTTPClientTransport
@_exported import struct RiderInfrastructure.LoopbackBrowserUserAgent
@_exported import struct RiderInfrastructure.ProxyEnvironment
@_exported import class RiderInfrastructure.SecretServiceTokenVault
@_exported import class RiderInfrastructure.EncryptedFileTokenVault
@_exported import struct RiderInfrastructure.VaultPassphrase
@_exported import struct RiderInfrastructure.VaultUnlockRetention
@_exported import enum RiderInfrastructure.VaultError
@_exported import struct RiderInfrastructure.SessionBinding
@_exported import class RiderInfrastructure.InMemoryTokenVault
@_exported import class RiderInfrastructure.SQLiteUserCache
@_exported import class RiderInfrastructure.InMemoryUserCache
@_exported import struct RiderInfrastructure.FileRefreshLock
@_exported import struct RiderInfrastructure.SystemClock
@_exported import class RiderInfrastructure.SwiftMetricsRecorder
