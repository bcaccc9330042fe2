# Prints terminal control sequences (a window title, clear screen, colour,
# a bell) around plain words: what reaches the agent must be the words.
print("\x1b]0;pwned\x07\x1b[2J\x1b[Hcolour \x1b[31mred\x1b[0m bell\x07 nul\x00 end")
