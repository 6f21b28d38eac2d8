// The quality curves of a pIC aggregation as tables, shared by the filters
// that output them (the partition filters, Resource Treemap), so that they
// all give the same "Quality Curves" and "Quality Plot" outputs.
#ifndef MacroscopeQualityTables_h
#define MacroscopeQualityTables_h

class vtkTable;

namespace macroscope
{
struct PartitionSweep;
}

namespace MacroscopeQualityTables
{
/// One row per distinct optimal partition over p in [0, 1]: PStart, PEnd,
/// Gain, Loss, Parts.
void FillCurves(vtkTable* curves, const macroscope::PartitionSweep& sweep);

/// The same curves for a Line Chart View with "p" as its x array: columns
/// p, Gain, Loss (two rows per partition, drawn as the steps they are) and
/// "Current p" (a vertical line at `parameter`), NaN where a series has no
/// point; the field data hold "Parameter".
void FillPlot(vtkTable* plot, const macroscope::PartitionSweep& sweep, double parameter);
}

#endif
