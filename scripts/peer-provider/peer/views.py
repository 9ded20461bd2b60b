"""Discovery documents completed with what this deployment really serves.

DOT 3.4.1's OpenID Connect discovery document (ConnectDiscoveryInfoView) names no
revocation_endpoint, no device_authorization_endpoint and no grant_types_supported, although
DOT serves both endpoints and both grants; its RFC 8414 document (OAuthServerMetadataView) has
revocation and grant types but no device_authorization_endpoint either. A client reading either
document alone (RiderKit reads the OpenID one first) would conclude that the provider cannot
revoke or do the device flow. These subclasses add the missing members, each from the same
source DOT uses for its own members (reversed URL names, the OAUTH2_PROVIDER settings), so the
documents stay truthful if the configuration changes.
"""

import json

from django.http import JsonResponse
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views import ConnectDiscoveryInfoView, OAuthServerMetadataView


def _completed(response, additions):
    """DOT's JSON response with `additions` merged in; DOT's own members win on a clash, and
    DOT's headers (Access-Control-Allow-Origin) are kept."""
    if response.status_code != 200:
        return response
    data = json.loads(response.content)
    for key, value in additions.items():
        if value is not None:
            data.setdefault(key, value)
    completed = JsonResponse(data)
    for header in ("Access-Control-Allow-Origin", "Cache-Control"):
        if header in response:
            completed[header] = response[header]
    return completed


class PeerDiscoveryInfoView(ConnectDiscoveryInfoView):
    """`{issuer}/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4)."""

    def get(self, request, *args, **kwargs):
        auth_methods = oauth2_settings.OIDC_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED
        return _completed(
            super().get(request, *args, **kwargs),
            {
                "revocation_endpoint": self._get_endpoint_url(request, "revoke-token"),
                "revocation_endpoint_auth_methods_supported": auth_methods,
                "device_authorization_endpoint": self._get_endpoint_url(request, "device-authorization"),
                "grant_types_supported": list(oauth2_settings.OAUTH2_GRANT_TYPES_SUPPORTED),
            },
        )


class PeerServerMetadataView(OAuthServerMetadataView):
    """RFC 8414 §3 metadata, at `/.well-known/oauth-authorization-server/o` (the issuer's path
    appended, §3.1) and at `{issuer}/.well-known/oauth-authorization-server`."""

    def get(self, request, *args, **kwargs):
        return _completed(
            super().get(request, *args, **kwargs),
            {
                "device_authorization_endpoint": self._get_endpoint_url(request, "device-authorization"),
                "userinfo_endpoint": self._get_endpoint_url(request, "user-info"),
            },
        )
