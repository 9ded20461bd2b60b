import Foundation
import RiderDomain

// MARK: - Preferences

extension API {
    /// `GET /riders/me/preferences`.
    package static var myPreferences: Endpoint<Preferences> {
        Endpoint(method: .get, path: "/riders/me/preferences", authorization: .bearer, decode: { response in
            try PreferencesDTO.decode(response.body)
        })
    }

    /// `PUT /riders/me/preferences`: the whole document, members this client does not know included.
    package static func setMyPreferences(_ preferences: Preferences) throws -> Endpoint<Preferences> {
        Endpoint(method: .put, path: "/riders/me/preferences", body: try .json(PreferencesDTO.encode(preferences)),
                 authorization: .bearer, decode: { response in try PreferencesDTO.decode(response.body) })
    }
}
