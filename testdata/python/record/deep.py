"""A cycle in a tree of nodes sends the depth computation into a RecursionError."""


def depth(node, seen=0):
    children = node.get("children", [])
    if not children:
        return 1
    return 1 + max(depth(child, seen + 1) for child in children)


def build():
    root = {"name": "root"}
    leaf = {"name": "leaf", "children": [root]}
    root["children"] = [leaf]
    return root


if __name__ == "__main__":
    print(depth(build()))
