"""
Lights Out on a graph
=====================

:func:`lightsout.solve_graph` plays on any undirected graph. On the Petersen graph with
every light on, the fewest-press solution is drawn with networkx: pressed vertices in red.
"""
import matplotlib.pyplot as plt
import networkx as nx

import lightsout

graph = nx.petersen_graph()
solution = lightsout.solve_graph(graph, minimal=True)
print(solution, "presses:", solution.press_list())

fig, ax = plt.subplots(figsize=(5, 5))
colours = ["#d62728" if pressed else "#f2d16b" for pressed in solution.presses]
nx.draw(graph, pos=nx.shell_layout(graph, [range(5, 10), range(5)]), node_color=colours,
        with_labels=True, ax=ax, edgecolors="black")
ax.set_title(f"Petersen graph: {solution.count} solutions, {int(solution.presses.sum())} presses at the fewest")
