from indent import check_block


def test_a_tab_indented_block():
    check_block(["def f():", "\treturn 1"])
