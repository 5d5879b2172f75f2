package skampi

// Groups of collectives: a suite of many operations is drawn as small
// multiples, a plot per group, rather than one plot of twenty curves.
// A hand-built reference is in the group of the operation it implements,
// a non-blocking or persistent form in its blocking operation's.

// PlotGroups are the groups of collectives, in the order the site draws them.
var PlotGroups = []string{"synchronisation and communicators", "one to all", "all to one", "all to all",
	"prefix reductions", "neighborhood", "one-sided", "local copy"}

// groupOf is the group of each library collective (by name).
var groupOf = map[string]string{
	"barrier": PlotGroups[0], "comm-split": PlotGroups[0], "comm-dup": PlotGroups[0],
	"bcast": PlotGroups[1], "scatter": PlotGroups[1], "scatterv": PlotGroups[1],
	"reduce": PlotGroups[2], "gather": PlotGroups[2], "gatherv": PlotGroups[2],
	"allreduce": PlotGroups[3], "allgather": PlotGroups[3], "allgatherv": PlotGroups[3], "alltoall": PlotGroups[3],
	"alltoallv": PlotGroups[3], "alltoallw": PlotGroups[3], "reduce-scatter-block": PlotGroups[3], "reduce-scatter": PlotGroups[3],
	"scan": PlotGroups[4], "exscan": PlotGroups[4],
	"put-all-one": PlotGroups[6], "put-all-own": PlotGroups[6],
	"memcpy": PlotGroups[7],
}

// GroupOf is the group of operation o: "" for one that is not a
// collective of a group.
func GroupOf(o Op) string {
	switch {
	case o.Family == FamilyNeighborhood:
		return PlotGroups[5]
	case o.Ref != "":
		return groupOf[o.Ref]
	case o.Of != "":
		return groupOf[o.Of]
	}
	return groupOf[o.Name]
}

// MaxPlotCurves is the most curves the site draws in one plot of a suite;
// a suite of more, whose operations fall into several groups, is drawn a
// plot per group.
const MaxPlotCurves = 8
