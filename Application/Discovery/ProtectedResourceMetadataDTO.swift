import Foundation
import RiderDomain

/// A protected resource metadata document (RFC 9728 §2) as the wire has it: only the members
/// RiderKit reads; unknown members are ignored (§2).
struct ProtectedResourceMetadataDTO: Decodable, Sendable {
    var resource: String
    var authorizationServers: [String]?
    var scopesSupported: [String]?
    var bearerMethodsSupported: [String]?
    var dpopSigningAlgValuesSupported: [String]?
    var dpopBoundAccessTokensRequired: Bool?
    var resourceName: String?
    var resourceDocumentation: String?

    enum CodingKeys: String, CodingKey {
        case resource
        case authorizationServers = "authorization_servers"
        case scopesSupported = "scopes_supported"
        case bearerMethodsSupported = "bearer_methods_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case dpopBoundAccessTokensRequired = "dpop_bound_access_tokens_required"
        case resourceName = "resource_name"
        case resourceDocumentation = "resource_documentation"
    }

    func toDomain() -> ProtectedResourceMetadata {
        ProtectedResourceMetadata(resource: resource, authorizationServers: authorizationServers ?? [],
                                  scopesSupported: scopesSupported, bearerMethodsSupported: bearerMethodsSupported,
                                  dpopSigningAlgValuesSupported: dpopSigningAlgValuesSupported,
                                  dpopBoundAccessTokensRequired: dpopBoundAccessTokensRequired ?? false,
                                  resourceName: resourceName, resourceDocumentation: resourceDocumentation)
    }
}
