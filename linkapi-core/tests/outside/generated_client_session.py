"""A short session through a Python client that openapi-python-client generated from a live
server's /openapi.json: create, list, edit and delete on the primary surface, on the
compatibility surface and by the original vendor's names. Run by tests/outside/generated_client.rs with
the generated package on PYTHONPATH; arguments: base URL, API key."""

import sys

from linkapi_client import AuthenticatedClient
from linkapi_client.api.compatibility import (
    compat_chain_create_post,
    compat_chain_delete_post,
    compat_chain_edit_post,
    compat_chain_list_get,
)
from linkapi_client.api.primary import (
    chains_create_post,
    chains_delete_delete,
    chains_get_get,
    chains_list_get,
    chains_update_patch,
)
from linkapi_client.api.vendor import (
    vendor_create_chain_post,
    vendor_get_chain_group_get,
    vendor_get_chain_list_get,
)
from linkapi_client.models import (
    CompatCreateChain,
    CompatOkArrayOfGroupItem,
    CompatOkChainList,
    CompatOkCreatedChain,
    CompatOkEditedChain,
    CompatOkEmpty,
    CreateChain,
    DeleteChains,
    EditChainType1,
    PrimaryOkChain,
    PrimaryOkChainPage,
    PrimaryOkDeletedChain,
    UpdateChainType1,
)


def expect(value, kind):
    assert isinstance(value, kind), f"expected {kind.__name__}, got {value!r}"
    return value


base, key = sys.argv[1], sys.argv[2]
client = AuthenticatedClient(base_url=base, token=key)

# The primary surface.
created = expect(
    chains_create_post.sync(
        client=client,
        body=CreateChain(target_url="https://example.com/generated", chain_title="generated"),
    ),
    PrimaryOkChain,
).data
assert created.code and created.render_url.endswith("/" + created.code)
listed = expect(chains_list_get.sync(client=client, page_size=10), PrimaryOkChainPage).data
assert [c.id for c in listed.list_] == [created.id], listed
updated = expect(
    chains_update_patch.sync(
        created.id, client=client, body=UpdateChainType1(target_url="https://example.com/edited")
    ),
    PrimaryOkChain,
).data
assert updated.target_url == "https://example.com/edited"
assert expect(chains_get_get.sync(created.id, client=client), PrimaryOkChain).data.chain_title == "generated"
# Two fields at once: the anyOf's branch for one, the other as an additional property.
both = UpdateChainType1(target_url="https://example.com/both")
both["chain_title"] = "both"
updated = expect(
    chains_update_patch.sync(created.id, client=client, body=both), PrimaryOkChain
).data
assert (updated.target_url, updated.chain_title) == ("https://example.com/both", "both"), updated
expect(chains_delete_delete.sync(created.id, client=client), PrimaryOkDeletedChain)

# The compatibility surface.
made = expect(
    compat_chain_create_post.sync(
        client=client,
        body=CompatCreateChain(target_url="https://example.com/compat", chain_title="compat"),
    ),
    CompatOkCreatedChain,
).result
code = made.render_url.rsplit("/", 1)[1]
page = expect(compat_chain_list_get.sync(client=client, page_size=10), CompatOkChainList).result
assert [item.chain for item in page.list_] == [code] and page.total == 1, page
edited = expect(
    compat_chain_edit_post.sync(
        client=client, body=EditChainType1.from_dict({"chain": code, "target_url": "https://example.com/c2"})
    ),
    CompatOkEditedChain,
).result
assert edited.target_url == "https://example.com/c2" and edited.render_url == made.render_url

# The vendor's names: the same operations.
expect(
    vendor_create_chain_post.sync(client=client, body=CompatCreateChain(target_url="https://example.com/v")),
    CompatOkCreatedChain,
)
rows = expect(vendor_get_chain_list_get.sync(client=client, start=0, count=1), CompatOkChainList).result
assert rows.list_num == 1 and rows.total == 2, rows
groups = expect(vendor_get_chain_group_get.sync(client=client), CompatOkArrayOfGroupItem).result
assert groups == [], groups

expect(compat_chain_delete_post.sync(client=client, body=DeleteChains(chains=[code])), CompatOkEmpty)
left = expect(compat_chain_list_get.sync(client=client), CompatOkChainList).result
assert left.total == 1, left
print("session ok")
